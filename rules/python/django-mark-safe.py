from django.utils.safestring import mark_safe
from django.utils import safestring
from django.utils.html import format_html, escape


def render_badge(user):
    # ruleid: python.django-mark-safe
    return mark_safe("<span class='badge'>" + user.nickname + "</span>")


def render_bio(profile):
    # ruleid: python.django-mark-safe
    return safestring.mark_safe(profile.bio_html)


def render_badge_safely(user):
    # ok: python.django-mark-safe
    return format_html("<span class='badge'>{}</span>", user.nickname)


def render_plain(profile):
    # ok: python.django-mark-safe
    return escape(profile.bio)
