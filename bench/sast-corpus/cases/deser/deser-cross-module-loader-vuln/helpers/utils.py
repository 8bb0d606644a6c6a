import json
import pickle


def load(blob):
    return pickle.loads(blob)
