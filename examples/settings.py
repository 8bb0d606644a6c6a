"""Settings with committed credentials (intentional, for the demo)."""
DEBUG = True
SECRET_KEY = "k3Jx9#Lm2vQz8$Wp4rTy"
AWS_ACCESS_KEY_ID = "AKIAZ7QM3XKD4HTVRN2P"
DATABASE_PASSWORD = "pA55w0rd-Q8zR!x7m"
