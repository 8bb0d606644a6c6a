#!/usr/bin/env python3
"""The fleet's claim statement on a bulk-loaded queue before and after ANALYZE (issue 81): a
throwaway PostgreSQL 15, one job submitted with `sentinel fleet submit noop` (which builds the
schema) and copied by SQL to N rows, then 40 claims by one session through the statement prepared
as the worker prepares it, median milliseconds of each (psql's \\timing), and whether the server
ran the generic plan: never analysed, never analysed with plan_cache_mode = force_generic_plan,
and after ANALYZE.

    bench/fleet-claim-stats.py SENTINEL [--jobs 20000]
"""
import argparse, sys, os, secrets, importlib.util, time, subprocess
from pathlib import Path
HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("ft", HERE / "fleet-throughput.py"); ft = importlib.util.module_from_spec(spec); spec.loader.exec_module(ft)
parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("sentinel")
parser.add_argument("--jobs", type=int, default=20000)
args = parser.parse_args()
sentinel = str(Path(args.sentinel).resolve())
server = ft.Postgres("off")
claim = """UPDATE fleet_jobs SET state = 'running', attempts = attempts + 1, lease_owner = $1, lease_token = $2,
    lease_until = extract(epoch from clock_timestamp())::double precision + $3, started_at = extract(epoch from clock_timestamp())::double precision
WHERE id = (SELECT id FROM fleet_jobs AS candidate
    WHERE (SELECT max(version) FROM fleet_schema_migrations) = CAST($4 AS INTEGER) AND state = 'queued' AND run_after <= extract(epoch from clock_timestamp())::double precision
      AND (exclusive_key IS NULL OR NOT EXISTS (SELECT 1 FROM fleet_jobs AS holder WHERE holder.state = 'running' AND holder.exclusive_key = candidate.exclusive_key))
    ORDER BY priority DESC, run_after, id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id"""
def session(db, extra=""):
    script = extra + f"PREPARE c(text, text, float8, text) AS {claim};\n\\timing on\n" + "".join(f"EXECUTE c('w', 't{i}', 30, '{version}');\n" for i in range(40)) + f"EXPLAIN EXECUTE c('w','x',30,'{version}');\n"
    env = dict(os.environ, PGPASSWORD=server.password)
    out = subprocess.run([str(ft.PG_BIN / "psql"), "-X", "-A", "-t", "-h", "127.0.0.1", "-p", str(server.port), "-U", server.user, "-d", db], input=script, capture_output=True, text=True, env=env).stdout
    times = [float(l.split()[1]) for l in out.splitlines() if l.startswith("Time:")]
    generic = "$3" in out or "$4" in out
    return sorted(times)[len(times)//2], times[-5:], generic
try:
    db = "an_" + secrets.token_hex(3); url = server.create_database(db)
    home = server.directory / "home"; home.mkdir()
    ft.run([sentinel, "fleet", "submit", "noop"], env=ft.sentinel_env(home, url))
    cols = server.psql("SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name='fleet_jobs' AND column_name <> 'id'", database=db).strip()
    server.psql(f"INSERT INTO fleet_jobs ({cols}) SELECT {cols} FROM fleet_jobs, generate_series(2, {args.jobs}) WHERE id = (SELECT min(id) FROM fleet_jobs)", database=db)
    global version
    version = server.psql("SELECT max(version) FROM fleet_schema_migrations", database=db).strip()
    for name, extra in [("never analysed", ""), ("never analysed, force_generic_plan", "SET plan_cache_mode = force_generic_plan;\n"),
                        ("after ANALYZE", None)]:
        if extra is None:
            server.psql("ANALYZE fleet_jobs", database=db)
        median, last, generic = session(db, extra or "")
        print(f"{name:36} median {median:.3f} ms  last five {last}  generic plan: {generic}", flush=True)
finally:
    server.stop()
