package input

import (
	"context"
	"time"

	"kith/store"
)

// Child is one kind of record that belongs to a person (contact details,
// important dates, notes, gifts, …): how a client's fields are read and
// which store methods keep it. The API serves each one (server's child,
// which adds its JSON) and the person page lists and edits it (web's
// child, which adds its form), from the same value, so that a form is
// checked by the API's rules and worded with its messages.
type Child[T, In any] struct {
	Param    string // the API's path parameter of its id
	NotFound error
	// Read reads the fields, the same on create and on replace; today is
	// the caller's date (Today).
	Read   func(p *Params, today time.Time) In
	Get    func(st *store.Store, ctx context.Context, acct, person, id int64) (T, error)
	Create func(st *store.Store, ctx context.Context, acct, person int64, in In) (T, error)
	Update func(st *store.Store, ctx context.Context, acct, person, id int64, in In) (T, error)
	Remove func(st *store.Store, ctx context.Context, acct, person, id int64) error
}

// ContactDetails are a person's emails, phones, addresses, links, handles.
var ContactDetails = Child[store.ContactDetail, store.ContactDetailInput]{
	Param: "detail", NotFound: store.ErrContactDetailNotFound,
	Read: func(p *Params, _ time.Time) store.ContactDetailInput { return ContactDetail(p) },
	Get:  (*store.Store).ContactDetail,
	Create: func(st *store.Store, ctx context.Context, acct, person int64, in store.ContactDetailInput) (store.ContactDetail, error) {
		d, err := st.CreateContactDetail(ctx, acct, person, in)
		return d, ContactDetailError(err)
	},
	Update: (*store.Store).UpdateContactDetail,
	Remove: (*store.Store).DeleteContactDetail,
}

// ImportantDates are a person's dates of their own: a wedding, a name day.
var ImportantDates = Child[store.ImportantDate, store.ImportantDateInput]{
	Param: "date", NotFound: store.ErrImportantDateNotFound,
	Read:   func(p *Params, _ time.Time) store.ImportantDateInput { return ImportantDate(p) },
	Get:    (*store.Store).ImportantDate,
	Create: (*store.Store).CreateImportantDate,
	Update: (*store.Store).UpdateImportantDate,
	Remove: (*store.Store).DeleteImportantDate,
}

// Notes are what the user wrote about a person.
var Notes = Child[store.Note, string]{
	Param: "note", NotFound: store.ErrNoteNotFound,
	Read:   func(p *Params, _ time.Time) string { return Note(p) },
	Get:    (*store.Store).Note,
	Create: (*store.Store).CreateNote,
	Update: (*store.Store).UpdateNote,
	Remove: (*store.Store).DeleteNote,
}

// LifeEvents are what happened in a person's life.
var LifeEvents = Child[store.LifeEvent, store.LifeEventInput]{
	Param: "event", NotFound: store.ErrLifeEventNotFound,
	Read:   func(p *Params, _ time.Time) store.LifeEventInput { return LifeEvent(p) },
	Get:    (*store.Store).LifeEvent,
	Create: (*store.Store).CreateLifeEvent,
	Update: (*store.Store).UpdateLifeEvent,
	Remove: (*store.Store).DeleteLifeEvent,
}

// WorkEntries are a person's work history.
var WorkEntries = Child[store.WorkEntry, store.WorkEntryInput]{
	Param: "entry", NotFound: store.ErrWorkEntryNotFound,
	Read:   func(p *Params, _ time.Time) store.WorkEntryInput { return WorkEntry(p) },
	Get:    (*store.Store).WorkEntry,
	Create: (*store.Store).CreateWorkEntry,
	Update: (*store.Store).UpdateWorkEntry,
	Remove: (*store.Store).DeleteWorkEntry,
}

// Gifts are ideas, gifts given and gifts received.
var Gifts = Child[store.Gift, store.GiftInput]{
	Param: "gift", NotFound: store.ErrGiftNotFound,
	Read:   func(p *Params, _ time.Time) store.GiftInput { return Gift(p) },
	Get:    (*store.Store).Gift,
	Create: (*store.Store).CreateGift,
	Update: (*store.Store).UpdateGift,
	Remove: (*store.Store).DeleteGift,
}

// Interactions are the calls, meetings and messages with a person; one
// may be dated as late as the caller's tomorrow.
var Interactions = Child[store.Interaction, store.InteractionInput]{
	Param: "interaction", NotFound: store.ErrInteractionNotFound,
	Read:   Interaction,
	Get:    (*store.Store).Interaction,
	Create: (*store.Store).CreateInteraction,
	Update: (*store.Store).UpdateInteraction,
	Remove: (*store.Store).DeleteInteraction,
}

// Tasks are a person's tasks as a Child, for the web app; the API's task
// routes predate Child and answer as the contract's task routes do.
var Tasks = Child[store.Task, store.TaskInput]{
	Param: "task", NotFound: store.ErrTaskNotFound,
	Read: func(p *Params, _ time.Time) store.TaskInput { return Task(p) },
	Get:  (*store.Store).Task,
	Create: func(st *store.Store, ctx context.Context, acct, person int64, in store.TaskInput) (store.Task, error) {
		t, err := st.CreateTask(ctx, acct, person, in)
		return t, TaskError(err)
	},
	Update: func(st *store.Store, ctx context.Context, acct, person, id int64, in store.TaskInput) (store.Task, error) {
		t, err := st.UpdateTask(ctx, acct, person, id, in)
		return t, TaskError(err)
	},
	Remove: (*store.Store).DeleteTask,
}

// Reminders are the reminders a user sets on a person.
var Reminders = Child[store.Reminder, store.ReminderInput]{
	Param: "reminder", NotFound: store.ErrReminderNotFound,
	Read:   func(p *Params, _ time.Time) store.ReminderInput { return Reminder(p) },
	Get:    (*store.Store).Reminder,
	Create: (*store.Store).CreateReminder,
	Update: (*store.Store).UpdateReminder,
	Remove: (*store.Store).DeleteReminder,
}
