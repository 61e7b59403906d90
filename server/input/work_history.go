package input

import "kith/store"

// WorkEntry reads the fields of an entry, the same on create and on
// update, which replaces: what is not sent is cleared.
func WorkEntry(p *Params) store.WorkEntryInput {
	in := store.WorkEntryInput{
		JobTitle:        p.RequiredText("job_title", 255),
		CompanyName:     p.Text("company_name", 255),
		EstimatedSalary: p.Text("estimated_salary", 255),
		Duration:        p.Text("duration", 255),
	}
	if b := p.Boolean("active"); b != nil {
		in.Active = *b
	} else if !p.Failed("active") {
		p.Fail("active", "The active field is required.")
	}
	return in
}
