from flask import Flask, request
from lxml import etree

app = Flask(__name__)
USERS = etree.parse("/srv/users.xml")


@app.route("/user")
def user():
    name = request.args.get("name", "")
    nodes = USERS.xpath(f"//user[@name='{name}']/email/text()")
    return {"emails": [str(n) for n in nodes]}
