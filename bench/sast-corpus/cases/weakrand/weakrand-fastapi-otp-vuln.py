import random
import secrets

from fastapi import FastAPI

from .sms import send_sms

app = FastAPI()


@app.post("/otp/{phone}")
def send_otp(phone: str):
    code = random.randint(0, 999999)
    send_sms(phone, f"Your code is {code:06d}")
    return {"sent": True}
