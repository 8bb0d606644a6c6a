from microweb import App

app = App()


@app.route("/health")
def health():
    return {"status": "ok"}


@app.route("/version")
def version():
    return {"version": "1.4.2"}


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=8000, debug=True)
