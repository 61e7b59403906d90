package store

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"sync/atomic"
)

// maxStmts bounds the statements a pool keeps. Every SQL string of the
// store is a constant, so the code bounds them already (131 call sites
// across both pools on 2026-11-24, and growing with the API); this only
// keeps a future mistake from growing the cache for ever. Past the bound
// statements run unprepared, so it must stay well above the code's count.
const maxStmts = 400

// pool is a *sql.DB that prepares each statement once and keeps it,
// since SQLite parses its short queries for longer than it runs them:
// without it a task get serves 34% fewer requests (.ci/bench).
type pool struct {
	*sql.DB
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
	// queries counts the statements run, so that tests can hold a list to
	// one query however long it is.
	queries atomic.Int64

	// bind rewrites ? into the engine's placeholders (PostgreSQL's $n);
	// with it the pool keeps no statements, since pgx keeps each
	// connection's own. nil on SQLite.
	bind *binder
	// snapshot is the isolation a read-only transaction asks for, so that
	// all its reads see one snapshot; SQLite's transactions always do.
	snapshot sql.IsolationLevel
}

// sql is query in the engine's placeholders.
func (p *pool) sql(query string) string {
	if p.bind == nil {
		return query
	}
	return p.bind.sql(query)
}

func newPool(d *sql.DB) *pool { return &pool{DB: d, stmts: make(map[string]*sql.Stmt)} }

// kept returns the statement of query, if it is kept.
func (p *pool) kept(query string) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stmts[query]
}

// prepare keeps a statement for query, unless the pool is full or the
// query is several statements (a migration), and returns it or nil. It
// holds no lock while preparing, which may wait for a connection.
func (p *pool) prepare(ctx context.Context, query string) *sql.Stmt {
	if st := p.kept(query); st != nil {
		return st
	}
	if p.bind != nil || strings.Contains(query, ";") {
		return nil
	}
	st, err := p.DB.PrepareContext(ctx, query)
	if err != nil {
		return nil // the query runs unprepared, and reports the error itself
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if old := p.stmts[query]; old != nil || len(p.stmts) >= maxStmts {
		st.Close()
		return old
	}
	p.stmts[query] = st
	return st
}

func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	p.queries.Add(1)
	if st := p.prepare(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.DB.QueryContext(ctx, p.sql(query), args...)
}

func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	p.queries.Add(1)
	if st := p.prepare(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.DB.QueryRowContext(ctx, p.sql(query), args...)
}

func (p *pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	p.queries.Add(1)
	if st := p.prepare(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return p.DB.ExecContext(ctx, p.sql(query), args...)
}

// BeginTx starts a transaction whose queries use the kept statements.
func (p *pool) BeginTx(ctx context.Context, opts *sql.TxOptions) (*txn, error) {
	if opts != nil && opts.ReadOnly && p.snapshot != sql.LevelDefault {
		opts = &sql.TxOptions{ReadOnly: true, Isolation: p.snapshot}
	}
	tx, err := p.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &txn{Tx: tx, pool: p}, nil
}

// Close closes the kept statements, then the pool.
func (p *pool) Close() error {
	p.mu.Lock()
	for q, st := range p.stmts {
		st.Close()
		delete(p.stmts, q)
	}
	p.mu.Unlock()
	return p.DB.Close()
}

// txn is a transaction that runs kept statements on its connection. A
// statement not yet kept runs unprepared and is kept once the transaction
// ends: preparing it on the pool meanwhile would wait for the connection
// the transaction holds, which for the one writer is for ever.
//
// own are the statements the transaction has used, bound to it: an import
// runs each thousands of times in one transaction, which would otherwise
// parse a missed one each time, and bind a kept one again each time (a
// statement database/sql holds until the end).
type txn struct {
	*sql.Tx
	pool   *pool
	missed []string
	own    map[string]*sql.Stmt
}

func (t *txn) stmt(ctx context.Context, query string) *sql.Stmt {
	if t.pool.bind != nil {
		return nil
	}
	if st, ok := t.own[query]; ok {
		return st
	}
	st := t.pool.kept(query)
	if st != nil {
		st = t.Tx.StmtContext(ctx, st)
	} else {
		t.missed = append(t.missed, query)
		if strings.Contains(query, ";") {
			return nil
		}
		var err error
		if st, err = t.Tx.PrepareContext(ctx, query); err != nil {
			return nil // the query runs unprepared, and reports the error itself
		}
	}
	if t.own == nil {
		t.own = map[string]*sql.Stmt{}
	}
	t.own[query] = st
	return st
}

func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	t.pool.queries.Add(1)
	if st := t.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, t.pool.sql(query), args...)
}

func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	t.pool.queries.Add(1)
	if st := t.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, t.pool.sql(query), args...)
}

func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	t.pool.queries.Add(1)
	if st := t.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, t.pool.sql(query), args...)
}

// end commits (or rolls back) and then keeps what the transaction missed.
func (t *txn) end(ctx context.Context, commit bool) error {
	var err error
	if commit {
		err = t.Tx.Commit()
	} else {
		err = t.Tx.Rollback()
	}
	for _, q := range t.missed {
		t.pool.prepare(ctx, q)
	}
	t.missed, t.own = nil, nil
	return err
}
