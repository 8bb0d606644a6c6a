import random
import secrets

from fastapi import FastAPI

from .sms import send_sms

app = FastAPI()


@app.post("/otp/{phone}")
def send_otp(phone: str):
    code = secrets.randbelow(1_000_000)
    send_sms(phone, f"Your code is {code:06d}")
    return {"sent": True}
