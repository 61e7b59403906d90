package input

import "kith/store"

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
