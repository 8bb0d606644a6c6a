from fastapi import Depends, FastAPI
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session, sessionmaker

engine = create_engine("postgresql+psycopg2://app@db/app")
SessionLocal = sessionmaker(bind=engine)
app = FastAPI()


def get_session():
    with SessionLocal() as session:
        yield session


@app.get("/products")
def products(q: str, db: Session = Depends(get_session)):
    rows = db.execute(text("SELECT id, title FROM products WHERE title ILIKE :q"), {"q": f"%{q}%"})
    return [dict(r._mapping) for r in rows]
