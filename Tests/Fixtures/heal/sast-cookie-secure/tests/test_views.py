from webapp.views import login, session_for


def test_login_sets_the_session_cookie():
    response = login("ada")
    assert response.status_code == 200
    assert response.body == {"user": "ada"}
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("session_id=" + session_for("ada"))
    assert "HttpOnly" in cookie


def test_responses_are_not_cached():
    assert login("ada").headers["Cache-Control"] == "no-store"


def test_user_is_required():
    response = login("")
    assert response.status_code == 400
    assert "Set-Cookie" not in response.headers


def test_session_differs_per_user():
    assert session_for("ada") != session_for("grace")
