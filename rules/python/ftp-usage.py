import ftplib
from ftplib import FTP, FTP_TLS


def upload(host, user, password, path):
    # ruleid: python.ftp-usage
    with ftplib.FTP(host, user, password) as ftp:
        with open(path, "rb") as f:
            ftp.storbinary("STOR report.csv", f)


def listing(host):
    # ruleid: python.ftp-usage
    ftp = FTP(host)
    ftp.login()
    return ftp.nlst()


def upload_tls(host, user, password):
    # ok: python.ftp-usage
    ftps = FTP_TLS(host, user, password)
    ftps.prot_p()
    return ftps


def upload_tls_qualified(host):
    # ok: python.ftp-usage
    return ftplib.FTP_TLS(host)
