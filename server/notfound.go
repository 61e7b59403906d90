package server

import (
	"errors"
	"net/http"

	"kith/store"
)

// notFoundMessages words each of the store's not-found errors as the
// contract does (§2). The store names its entities for its own logs; what
// a client reads is decided here.
var notFoundMessages = []struct {
	err error
	msg string
}{
	{store.ErrPersonNotFound, "Person not found."},
	{store.ErrTaskNotFound, "Task not found."},
	{store.ErrCategoryNotFound, "Task category not found."},
	{store.ErrAPIKeyNotFound, "API key not found."},
	{store.ErrUserNotFound, "User not found."},
	{store.ErrAccountNotFound, "Account not found."},
	{store.ErrLifeEventNotFound, "Life event not found."},
	{store.ErrWorkEntryNotFound, "Work history entry not found."},
	{store.ErrGenderNotFound, "Gender not found."},
	{store.ErrNoteNotFound, "Note not found."},
	{store.ErrGiftNotFound, "Gift not found."},
	{store.ErrJournalNotFound, "Journal not found."},
	{store.ErrEntryNotFound, "Entry not found."},
	{store.ErrLogNotFound, "Log not found."},
	{store.ErrChannelNotFound, "Channel not found."},
	{store.ErrContactDetailNotFound, "Contact detail not found."},
	{store.ErrImportantDateNotFound, "Important date not found."},
	{store.ErrInteractionNotFound, "Interaction not found."},
	{store.ErrCalendarFeedNotFound, "Calendar feed not found."},
	{store.ErrCardNotFound, "Card not found."},
	{store.ErrRelationshipTypeNotFound, "Relationship type not found."},
	{store.ErrRelationshipNotFound, "Relationship not found."},
	{store.ErrTagNotFound, "Tag not found."},
	{store.ErrPhotoNotFound, "Photo not found."},
	{store.ErrReminderNotFound, "Reminder not found."},
	{store.ErrWebSessionNotFound, "Session not found."},
	{store.ErrPasskeyNotFound, "Passkey not found."},
}

// notFoundMessage words a store not-found error. One with no message of
// its own here gets the generic "Not found.", never the store's text.
func notFoundMessage(err error) string {
	for _, m := range notFoundMessages {
		if errors.Is(err, m.err) {
			return m.msg
		}
	}
	return statusMessages[http.StatusNotFound]
}
