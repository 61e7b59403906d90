package input

import (
	"errors"

	"kith/store"
)

// Task reads the fields of a task; due_at takes a Unix time, a date
// or an RFC 3339 time on both create and update.
func Task(p *Params) store.TaskInput {
	in := store.TaskInput{
		Name:       p.RequiredText("name", 255),
		DueAt:      p.Timestamp("due_at"),
		CategoryID: p.Integer("task_category_id"),
	}
	if in.CategoryID != nil && *in.CategoryID <= 0 {
		p.Fail("task_category_id", "The selected task category id is invalid.")
	}
	return in
}

// TaskError turns an unknown category into the 422 a client can act on.
func TaskError(err error) error {
	if errors.Is(err, store.ErrUnknownCategory) {
		return Invalid("task_category_id", "The selected task category id is invalid.")
	}
	return err
}
