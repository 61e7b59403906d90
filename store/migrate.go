package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// migrationFiles holds each engine's migrations, migrations/<engine>/NNNN_name.sql.
//
//go:embed migrations
var migrationFiles embed.FS

// sqliteMigrations is the folder of SQLite's migrations, which SQLite
// files (backups) are checked against whatever the engine of the store.
const sqliteMigrations = "migrations/sqlite"

type migration struct {
	version int
	name    string // the file's name without .sql
	file    string // its path in migrationFiles
}

// noForeignKeys is the first line of a migration that runs with foreign
// keys off.
const noForeignKeys = "-- kith: foreign keys off"

// migrations returns the embedded migrations in version order, from their
// file names, NNNN_name.sql, alone: a start with nothing to apply reads
// none of them (read).
func migrations(dir string) ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, dir)
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	var ms []migration
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".sql")
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %q is not named NNNN_name.sql", e.Name())
		}
		ms = append(ms, migration{version: v, name: name, file: dir + "/" + e.Name()})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// read returns the migration's statements, and whether it runs with
// foreign keys off (see withForeignKeysOff): its file starts with the
// line noForeignKeys.
func (m migration) read() (statements string, foreignKeysOff bool, err error) {
	body, err := migrationFiles.ReadFile(m.file)
	if err != nil {
		return "", false, fmt.Errorf("store: read migration %s: %w", m.name, err)
	}
	return string(body), strings.HasPrefix(string(body), noForeignKeys+"\n"), nil
}

// Migrate applies the pending migrations, each in one transaction with its
// version row, and returns the names of those it applied. It refuses a
// database whose schema is newer than this binary knows: running old code
// on it could corrupt data that a newer Kith wrote. It refuses as well a
// database that has tables but is not Kith's, and leaves it as it was.
func (s *Store) Migrate(ctx context.Context) ([]string, error) {
	return s.migrateTo(ctx, 0)
}

// migrateTo is Migrate that stops after the migration upTo, 0 for none;
// tests build the databases of older versions with it.
func (s *Store) migrateTo(ctx context.Context, upTo int) ([]string, error) {
	ms, err := migrations(s.eng.migrationDir())
	if err != nil {
		return nil, err
	}
	// A database already Kith's is checked by one or two reads, and only
	// one behind this binary is written: the writer's connection is not
	// opened by a start that has nothing to apply.
	current, ours := s.kithVersion(ctx)
	if !ours {
		if ours, err = s.checkKithSchema(ctx); err != nil {
			return nil, err
		}
		if !ours {
			if err := s.createSchemaMigrations(ctx); err != nil {
				return nil, err
			}
		}
		if current, err = schemaVersion(ctx, s.r); err != nil {
			return nil, err
		}
	}
	latest := ms[len(ms)-1].version
	if current > latest {
		return nil, fmt.Errorf("store: the database is at schema version %d, newer than this binary knows (%d): run a newer kith", current, latest)
	}
	var applied []string
	for _, m := range ms {
		if m.version <= current {
			continue
		}
		if upTo > 0 && m.version > upTo {
			break
		}
		statements, foreignKeysOff, err := m.read()
		if err != nil {
			return applied, err
		}
		ran := false
		apply := func() error {
			return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
				// Read again under the lock: another process opening the same
				// new database may have applied it since.
				if err := s.eng.lockMigrations(ctx, tx); err != nil {
					return fmt.Errorf("store: lock for migrations: %w", err)
				}
				v, err := schemaVersion(ctx, tx)
				if err != nil || v >= m.version {
					return err
				}
				if foreignKeysOff {
					if err := foreignKeysAreOff(ctx, tx); err != nil {
						return fmt.Errorf("store: migration %s: %w", m.name, err)
					}
				}
				// Tx.ExecContext itself: a migration is several statements,
				// run once, and nothing to keep.
				if _, err := tx.Tx.ExecContext(ctx, statements); err != nil {
					return fmt.Errorf("store: migration %s: %w", m.name, err)
				}
				if foreignKeysOff {
					if err := checkForeignKeys(ctx, tx); err != nil {
						return fmt.Errorf("store: migration %s: %w", m.name, err)
					}
				}
				_, err = tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
					m.version, m.name, s.now())
				ran = err == nil
				return err
			})
		}
		if foreignKeysOff {
			err = s.withForeignKeysOff(ctx, apply)
		} else {
			err = apply()
		}
		if err != nil {
			return applied, err
		}
		if ran {
			applied = append(applied, m.name)
		}
	}
	return applied, nil
}

// kithVersion is the schema version of a SQLite database whose
// schema_migrations has Kith's three columns, read in one statement: the
// statement fails on any other database (no such table or column), which
// checkKithSchema then tells apart. It saves a start the check's read of
// the whole schema list (half a millisecond). Not on PostgreSQL, whose log
// would record the failure on every new database.
func (s *Store) kithVersion(ctx context.Context) (version int, ok bool) {
	if _, sqlite := s.eng.(sqliteEngine); !sqlite {
		return 0, false
	}
	var named, stamped int
	err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(version), 0), count(name), count(applied_at) FROM schema_migrations`).
		Scan(&version, &named, &stamped)
	return version, err == nil
}

// SchemaVersion returns the highest applied migration, 0 for none (also
// on a database never migrated).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	ok, err := s.eng.hasTable(ctx, s.r, "schema_migrations")
	if err != nil || !ok {
		return 0, err
	}
	return schemaVersion(ctx, s.r)
}

func schemaVersion(ctx context.Context, q queryer) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	return v, nil
}

// createSchemaMigrations makes the table of applied migrations in a
// database that has none yet.
func (s *Store) createSchemaMigrations(ctx context.Context) error {
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		// Under the migration lock: two PostgreSQL instances creating the
		// table at once would otherwise collide in the catalog.
		if err := s.eng.lockMigrations(ctx, tx); err != nil {
			return err
		}
		_, err := tx.Tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    INTEGER PRIMARY KEY,
			name       TEXT    NOT NULL,
			applied_at BIGINT  NOT NULL
		)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: create schema_migrations: %w", err)
	}
	return nil
}

// checkKithSchema refuses a database that is neither empty nor Kith's: one
// with tables but no schema_migrations, or with a schema_migrations that
// another tool made (golang-migrate's has version and dirty). Migrating it
// would add Kith's tables, and an admin, to someone else's data. ours
// reports whether Kith's schema_migrations is there; an empty database
// has none.
func (s *Store) checkKithSchema(ctx context.Context) (ours bool, err error) {
	kith, tables, err := s.eng.tables(ctx, s.r)
	if err != nil {
		return false, fmt.Errorf("store: read the schema: %w", err)
	}
	switch {
	case kith == 3:
		return true, nil
	case kith > 0 || tables.Valid:
		what := "a schema_migrations table that is not Kith's"
		if tables.Valid {
			what = "tables (" + tables.String + ") but no Kith schema_migrations"
		}
		return false, fmt.Errorf("store: the database is not a Kith database: it has %s; point db at a new file or at a Kith database", what)
	}
	return false, nil // empty
}
