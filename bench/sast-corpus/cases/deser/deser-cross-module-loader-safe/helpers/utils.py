import json
import pickle


def load(blob):
    return json.loads(blob)
