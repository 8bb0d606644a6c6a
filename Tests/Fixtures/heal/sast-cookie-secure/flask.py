"""A stand-in for the two parts of Flask this project uses, written for the fixture (the test
environment's python3 has no Flask): a response that renders its cookies as Set-Cookie."""


class Response:
    def __init__(self, body, status=200):
        self.body = body
        self.status_code = status
        self.headers = {}

    def set_cookie(self, key, value="", max_age=None, path="/", secure=False, httponly=False, samesite=None):
        parts = [f"{key}={value}", f"Path={path}"]
        if max_age is not None:
            parts.append(f"Max-Age={max_age}")
        if secure:
            parts.append("Secure")
        if httponly:
            parts.append("HttpOnly")
        if samesite:
            parts.append(f"SameSite={samesite}")
        self.headers["Set-Cookie"] = "; ".join(parts)


def make_response(body, status=200):
    return Response(body, status)
