package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrMergeUnknown is a person to merge away that is not a person of the
// account: the client's parameter, not the path, names it.
var ErrMergeUnknown = errors.New("store: the person to merge is not a person of the account")

// MergePersons moves everything of the person otherID into keptID, fills
// the kept person's empty fields with the other's, and deletes the other,
// in one transaction: a merge half done would leave a person's records
// split between two cards. Records keep their ids. A missing kept person
// is ErrPersonNotFound, a missing other ErrMergeUnknown, a protected
// other (can_be_deleted false) ErrPersonProtected, and a kept person left
// with more than MaxContactDetails contact details ErrTooManyContactDetails;
// nothing changes then.
func (s *Store) MergePersons(ctx context.Context, accountID, keptID, otherID int64) (Person, error) {
	var p Person
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		kept, err := getPerson(ctx, tx, accountID, keptID)
		if err != nil {
			return err
		}
		other, err := getPerson(ctx, tx, accountID, otherID)
		if errors.Is(err, ErrPersonNotFound) || keptID == otherID {
			return ErrMergeUnknown
		}
		if err != nil {
			return err
		}
		if !other.CanBeDeleted {
			return ErrPersonProtected
		}
		for _, move := range []func(context.Context, *txn, int64, int64) error{
			moveOwned, moveWorkHistory, moveContactDetails, moveImportantDates, moveStayInTouch, moveRelationships, moveTags,
			movePhoto,
		} {
			if err := move(ctx, tx, keptID, otherID); err != nil {
				return err
			}
		}
		sets, args := mergedFields(kept, other)
		if p, err = s.updatePersonTx(ctx, tx, accountID, keptID, sets, args...); err != nil {
			return err
		}
		// Not DeletePerson: a merge logs itself, not a deletion. The
		// delete trigger records the other's card as deleted, so a phone
		// drops it at its next sync.
		if _, err := tx.ExecContext(ctx, `DELETE FROM persons WHERE id = ? AND account_id = ?`, otherID, accountID); err != nil {
			return fmt.Errorf("store: merge: delete the other: %w", err)
		}
		if err := refreshSearch(ctx, tx, keptID); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "person_merge",
			"Merged "+FullName(other.FirstName, other.LastName)+" into "+FullName(p.FirstName, p.LastName))
	})
	return p, err
}

// mergedFields is the SET clause that gives the kept person each field it
// lacks from the other: null fields, unknown statuses, an age never set.
func mergedFields(kept, other Person) (string, []any) {
	var sets []string
	var args []any
	set := func(col string, v any) {
		sets = append(sets, col+" = ?")
		args = append(args, v)
	}
	for _, f := range []struct {
		col         string
		kept, other *string
	}{
		{"last_name", kept.LastName, other.LastName}, {"middle_name", kept.MiddleName, other.MiddleName},
		{"nickname", kept.Nickname, other.Nickname}, {"maiden_name", kept.MaidenName, other.MaidenName},
		{"prefix", kept.Prefix, other.Prefix}, {"suffix", kept.Suffix, other.Suffix},
		{"how_we_met", kept.HowWeMet, other.HowWeMet},
	} {
		set(f.col, orOther(f.kept, f.other))
	}
	for i, col := range AppearanceFields {
		set(col, orOther(kept.Appearance[i], other.Appearance[i]))
	}
	if kept.Gender == nil && other.Gender != nil {
		set("gender_id", other.Gender.ID)
	}
	if kept.MaritalStatus == "unknown" {
		set("marital_status", other.MaritalStatus)
	}
	if kept.KidsStatus == "unknown" {
		set("kids_status", other.KidsStatus)
	}
	if a := other.Age; kept.Age.Type == nil && a.Type != nil {
		for _, c := range []struct {
			col string
			v   any
		}{
			{"age_type", a.Type}, {"age_year", a.Year}, {"age_month", a.Month}, {"age_day", a.Day},
			{"estimated_age", a.Estimated}, {"estimated_at", a.EstimatedAt}, {"age_bracket", a.Bracket},
			{"yearly_reminder", a.YearlyReminder},
		} {
			set(c.col, c.v)
		}
	}
	return strings.Join(sets, ", "), args
}

func orOther(kept, other *string) *string {
	if kept != nil {
		return kept
	}
	return other
}

// moveOwned gives the kept person every record of the kinds a person may
// have any number of, whatever they hold.
func moveOwned(ctx context.Context, tx *txn, keptID, otherID int64) error {
	for _, table := range []string{"tasks", "notes", "gifts", "life_events", "interactions", "reminders"} {
		if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET person_id = ? WHERE person_id = ?`, keptID, otherID); err != nil {
			return fmt.Errorf("store: merge %s: %w", table, err)
		}
	}
	return nil
}

// moveWorkHistory moves the other's jobs; when both have an active one,
// the kept person's stays the active one.
func moveWorkHistory(ctx context.Context, tx *txn, keptID, otherID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE work_history SET active = false
		WHERE person_id = ? AND active AND EXISTS (SELECT 1 FROM work_history k WHERE k.person_id = ? AND k.active)`,
		otherID, keptID); err != nil {
		return fmt.Errorf("store: merge work history: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE work_history SET person_id = ? WHERE person_id = ?`, keptID, otherID); err != nil {
		return fmt.Errorf("store: merge work history: %w", err)
	}
	return nil
}

// moveStayInTouch moves the other's cadence when the kept person has none;
// otherwise the other's goes with it.
// movePhoto gives the kept person the other's photo when it has none;
// the kept person's own stays otherwise, and the other's goes with it.
func movePhoto(ctx context.Context, tx *txn, keptID, otherID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE photos SET person_id = ?
		WHERE person_id = ? AND NOT EXISTS (SELECT 1 FROM photos k WHERE k.person_id = ?)`,
		keptID, otherID, keptID); err != nil {
		return fmt.Errorf("store: merge photo: %w", err)
	}
	return nil
}

func moveStayInTouch(ctx context.Context, tx *txn, keptID, otherID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE stay_in_touch SET person_id = ?
		WHERE person_id = ? AND NOT EXISTS (SELECT 1 FROM stay_in_touch k WHERE k.person_id = ?)`,
		keptID, otherID, keptID); err != nil {
		return fmt.Errorf("store: merge stay in touch: %w", err)
	}
	return nil
}
