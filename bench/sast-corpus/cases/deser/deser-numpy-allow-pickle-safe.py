import numpy as np
from flask import Flask, request

app = Flask(__name__)


@app.post("/arrays")
def upload_array():
    arr = np.load(request.files["array"].stream, allow_pickle=False)
    return {"shape": list(arr.shape)}
