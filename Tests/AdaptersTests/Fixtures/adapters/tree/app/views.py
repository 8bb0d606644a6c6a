import subprocess
import pickle


def run(cmd):
    subprocess.call(cmd, shell=True)


def load(blob):
    return pickle.loads(blob)


def quiet(cmd):
    subprocess.call(cmd, shell=True)  # nosec B602


def greet(name):
    label = "héllo"; subprocess.call(
        "echo " + name,
        shell=True,
    )
