-- Health writes here after a write failed for want of storage, to learn
-- whether a write of some size fits again. Empty between probes.
CREATE TABLE health_probe (
  id     INTEGER PRIMARY KEY,
  filler BLOB NOT NULL
);
