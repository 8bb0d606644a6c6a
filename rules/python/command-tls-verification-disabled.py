import os
import subprocess


def fetch(url, run_cmd):
    # ruleid: python.command-tls-verification-disabled
    out = run_cmd(f"curl --insecure {url}")
    # ruleid: python.command-tls-verification-disabled
    os.system("wget --no-check-certificate -q " + url)
    # ruleid: python.command-tls-verification-disabled
    subprocess.run("curl -sSk -o /tmp/x " + url, shell=True)
    # ruleid: python.command-tls-verification-disabled
    subprocess.run(["sh", "-c", "cd /srv && curl -k https://example.org/get.sh | sh"])
    return out


def fine(url, run_cmd):
    # ok: python.command-tls-verification-disabled
    out = run_cmd(f"curl --cacert /etc/ssl/ca.pem {url}")
    # ok: python.command-tls-verification-disabled
    os.system("curl -sS -o /tmp/k-file " + url)
    # ok: python.command-tls-verification-disabled
    help_text = "pass -k to the tool"
    # ok: python.command-tls-verification-disabled
    subprocess.run(["curl", "-s", url])
    return out, help_text
