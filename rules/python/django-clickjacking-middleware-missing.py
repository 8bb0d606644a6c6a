# ruleid: python.django-clickjacking-middleware-missing
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# ruleid: python.django-clickjacking-middleware-missing
MIDDLEWARE_CLASSES = (
    'django.contrib.sessions.middleware.SessionMiddleware',
    'django.middleware.csrf.CsrfViewMiddleware',
)

# ok: python.django-clickjacking-middleware-missing
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# ok: python.django-clickjacking-middleware-missing
MIDDLEWARE = [
    "django.middleware.common.CommonMiddleware",
]

# ok: python.django-clickjacking-middleware-missing
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "csp.middleware.CSPMiddleware",
]
