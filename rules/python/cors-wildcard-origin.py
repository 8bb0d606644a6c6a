from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from flask import Flask
from flask_cors import CORS

api = FastAPI()
# ruleid: python.cors-wildcard-origin
api.add_middleware(CORSMiddleware, allow_origins=["*"], allow_credentials=True, allow_methods=["*"])
# ok: python.cors-wildcard-origin
api.add_middleware(CORSMiddleware, allow_origins=["https://app.example.com"], allow_credentials=True)

app = Flask(__name__)
# ruleid: python.cors-wildcard-origin
CORS(app, origins="*")
# ok: python.cors-wildcard-origin
CORS(app, origins=["https://app.example.com"])
# ruleid: python.cors-wildcard-origin
CORS(app)
# ruleid: python.cors-wildcard-origin
CORS(app, supports_credentials=True)
# ok: python.cors-wildcard-origin
CORS(app, resources={r"/api/*": {"origins": "https://app.example.com"}})
# ok: python.cors-wildcard-origin
cors = CORS()

# ruleid: python.cors-wildcard-origin
CORS_ALLOW_ALL_ORIGINS = True
# ruleid: python.cors-wildcard-origin
CORS_ORIGIN_ALLOW_ALL = True
# ok: python.cors-wildcard-origin
CORS_ALLOW_ALL_ORIGINS = False
