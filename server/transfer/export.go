// Package transfer is Kith's export document and its import: WriteExport
// writes an account as the document that GET /api/export answers and kith
// export saves, ImportDocument restores one into an account that has no
// persons, reading every row with the API's rules (package input).
// DecodeVCards reads a vCard file, as the import of contacts takes it, a
// page of cards at a time. The server's handlers and the command line
// call it. Only VCardFile, which takes the file from an upload for the
// API and the pages alike, reads a request; the rest knows nothing of
// HTTP.
package transfer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"reflect"
	"slices"

	"kith/store"
)

// ExportVersion is the format of the export document that this Kith
// writes, and the newest it imports. A change that an older Kith would
// misread (a field that changes meaning, a row it would drop) takes the
// next number; a field added for something new does not.
const ExportVersion = 1

// ExportBatch is how many persons an export reads and writes at a time:
// memory holds one batch, whatever the size of the account.
const ExportBatch = 200

// The export document: what each row is made of, named as the API's
// parameters for making it, so that an import reads each with the rules of
// the API. Ids are not in it but for task categories and genders, which
// the tasks and persons refer to by them.
type (
	exportHead struct {
		Version           int                      `json:"kith_export"`
		ExportedAt        int64                    `json:"exported_at"`
		Settings          exportSettings           `json:"settings"`
		TaskCategories    []exportCategory         `json:"task_categories"`
		Genders           []exportGender           `json:"genders"`
		RelationshipTypes []exportRelationshipType `json:"relationship_types"`
		Tags              []exportTag              `json:"tags"`
		Journals          []exportJournal          `json:"journals"`
	}
	exportSettings struct {
		Timezone  string          `json:"timezone"`
		Reminders exportReminders `json:"reminders"`
	}
	exportReminders struct {
		SendAt *string `json:"send_at"`
		Days   int64   `json:"days"`
	}
	exportCategory struct {
		ID        int64  `json:"id"`
		Name      string `json:"name"`
		Color     string `json:"color"`
		CreatedAt int64  `json:"created_at"`
		UpdatedAt *int64 `json:"updated_at"`
	}
	exportGender struct {
		ID        int64  `json:"id"`
		Name      string `json:"name"`
		Position  int64  `json:"position"`
		CreatedAt int64  `json:"created_at"`
		UpdatedAt *int64 `json:"updated_at"`
	}
	exportRelationshipType struct {
		Name        string `json:"name"`
		NameReverse string `json:"name_reverse"`
		Group       string `json:"group"`
		CreatedAt   int64  `json:"created_at"`
		UpdatedAt   int64  `json:"updated_at"`
	}
	// exportTag is one of the account's tags, which persons name.
	exportTag struct {
		Name      string `json:"name"`
		CreatedAt int64  `json:"created_at"`
		UpdatedAt int64  `json:"updated_at"`
	}
	exportJournal struct {
		Name      string        `json:"name"`
		CreatedAt int64         `json:"created_at"`
		UpdatedAt int64         `json:"updated_at"`
		Entries   []exportEntry `json:"entries"`
	}
	exportEntry struct {
		Year      int    `json:"year"`
		Month     int    `json:"month"`
		Day       int    `json:"day"`
		Body      string `json:"body"`
		CreatedAt int64  `json:"created_at"`
		UpdatedAt int64  `json:"updated_at"`
	}
	exportPerson struct {
		UID                *string               `json:"uid"`
		FirstName          string                `json:"first_name"`
		LastName           *string               `json:"last_name"`
		MiddleName         *string               `json:"middle_name"`
		Nickname           *string               `json:"nickname"`
		MaidenName         *string               `json:"maiden_name"`
		Prefix             *string               `json:"prefix"`
		Suffix             *string               `json:"suffix"`
		HowWeMet           *string               `json:"how_we_met"`
		MaritalStatus      string                `json:"marital_status"`
		KidsStatus         string                `json:"kids_status"`
		GenderID           *int64                `json:"gender_id"`
		CanBeDeleted       bool                  `json:"can_be_deleted"`
		IsListed           bool                  `json:"is_listed"`
		Age                *exportAge            `json:"age"`
		PhysicalAppearance exportAppearance      `json:"physical_appearance"`
		VCardExtra         *string               `json:"vcard_extra"`
		CreatedAt          int64                 `json:"created_at"`
		UpdatedAt          int64                 `json:"updated_at"`
		StayInTouch        *exportCadence        `json:"stay_in_touch"`
		ContactDetails     []exportContactDetail `json:"contact_details"`
		ImportantDates     []exportImportantDate `json:"important_dates"`
		Notes              []exportNote          `json:"notes"`
		Gifts              []exportGift          `json:"gifts"`
		LifeEvents         []exportLifeEvent     `json:"life_events"`
		WorkHistory        []exportWorkEntry     `json:"work_history"`
		Tasks              []exportTask          `json:"tasks"`
		Interactions       []exportInteraction   `json:"interactions"`
		Tags               []string              `json:"tags"`
		Relationships      []exportRelationship  `json:"relationships"`
		// Photo is the JPEG Kith keeps, in standard base64; null for none.
		Photo *string `json:"photo"`
	}
	// exportAppearance is a person's physical appearance, its fields in
	// the order of their names: the order encoding/json gives a map's
	// keys, which is what the document held before (a map, whose keys
	// were sorted again for every person, a tenth of an export's time).
	exportAppearance struct {
		Build            *string `json:"build"`
		DistinctiveMarks *string `json:"distinctive_marks"`
		DressStyle       *string `json:"dress_style"`
		EyeColor         *string `json:"eye_color"`
		EyeShape         *string `json:"eye_shape"`
		FaceShape        *string `json:"face_shape"`
		FacialHair       *string `json:"facial_hair"`
		Glasses          *string `json:"glasses"`
		HairColor        *string `json:"hair_color"`
		HairLength       *string `json:"hair_length"`
		HairType         *string `json:"hair_type"`
		Height           *string `json:"height"`
		Piercings        *string `json:"piercings"`
		Scars            *string `json:"scars"`
		SkinTone         *string `json:"skin_tone"`
		Tatoos           *string `json:"tatoos"`
		Voice            *string `json:"voice"`
		Weight           *string `json:"weight"`
	}
	// exportAge has the fields of its kind only, as PATCH …/age takes
	// them, and estimated_at, when an estimated age was set.
	exportAge struct {
		AgeType           string  `json:"age_type"`
		AgeYear           *int64  `json:"age_year,omitempty"`
		AgeMonth          *int64  `json:"age_month,omitempty"`
		AgeDay            *int64  `json:"age_day,omitempty"`
		EstimatedAge      *int64  `json:"estimated_age,omitempty"`
		EstimatedAt       *int64  `json:"estimated_at,omitempty"`
		AgeBracket        *string `json:"age_bracket,omitempty"`
		AddYearlyReminder bool    `json:"add_yearly_reminder"`
	}
	exportCadence struct {
		EveryDays int64  `json:"every_days"`
		SinceOn   string `json:"since_on"`
		CreatedAt int64  `json:"created_at"`
		UpdatedAt int64  `json:"updated_at"`
	}
	exportContactDetail struct {
		Kind       string  `json:"kind"`
		Label      *string `json:"label"`
		Position   int64   `json:"position"`
		Value      *string `json:"value"`
		Network    *string `json:"network"`
		Street     *string `json:"street"`
		City       *string `json:"city"`
		PostalCode *string `json:"postal_code"`
		Region     *string `json:"region"`
		Country    *string `json:"country"`
		CreatedAt  int64   `json:"created_at"`
		UpdatedAt  int64   `json:"updated_at"`
	}
	exportImportantDate struct {
		Label        string `json:"label"`
		Year         *int64 `json:"year"`
		Month        int64  `json:"month"`
		Day          int64  `json:"day"`
		RemindYearly bool   `json:"remind_yearly"`
		CreatedAt    int64  `json:"created_at"`
		UpdatedAt    int64  `json:"updated_at"`
	}
	exportNote struct {
		Content   string `json:"content"`
		CreatedAt int64  `json:"created_at"`
		UpdatedAt int64  `json:"updated_at"`
	}
	// exportGift's date is its gifted_at, named as the API takes it.
	exportGift struct {
		Name      string  `json:"name"`
		Occasion  *string `json:"occasion"`
		URL       *string `json:"url"`
		Status    string  `json:"status"`
		Date      *int64  `json:"date"`
		CreatedAt int64   `json:"created_at"`
		UpdatedAt int64   `json:"updated_at"`
	}
	exportLifeEvent struct {
		Description      string  `json:"description"`
		Comment          *string `json:"comment"`
		Icon             *string `json:"icon"`
		BgColor          *string `json:"bg_color"`
		TextColor        *string `json:"text_color"`
		HappenedAt       int64   `json:"happened_at"`
		ShouldBeReminded bool    `json:"should_be_reminded"`
		CreatedAt        int64   `json:"created_at"`
		UpdatedAt        int64   `json:"updated_at"`
	}
	exportWorkEntry struct {
		JobTitle        string  `json:"job_title"`
		CompanyName     *string `json:"company_name"`
		EstimatedSalary *string `json:"estimated_salary"`
		Duration        *string `json:"duration"`
		Active          bool    `json:"active"`
		CreatedAt       int64   `json:"created_at"`
		UpdatedAt       int64   `json:"updated_at"`
	}
	exportTask struct {
		Name           string `json:"name"`
		TaskCategoryID *int64 `json:"task_category_id"`
		IsCompleted    bool   `json:"is_completed"`
		DueAt          *int64 `json:"due_at"`
		CompletedAt    *int64 `json:"completed_at"`
		CreatedAt      int64  `json:"created_at"`
		UpdatedAt      int64  `json:"updated_at"`
	}
	// exportRelationship is one stored on its person: person_uid is the
	// other's uid, and the type is named as the head's relationship_types
	// name it. id orders the relationships (see store.RelationshipRecord).
	exportRelationship struct {
		ID          int64  `json:"id"`
		Type        string `json:"type"`
		TypeReverse string `json:"type_reverse"`
		Group       string `json:"group"`
		PersonUID   string `json:"person_uid"`
		CreatedAt   int64  `json:"created_at"`
		UpdatedAt   int64  `json:"updated_at"`
	}
	exportInteraction struct {
		HappenedOn string  `json:"happened_on"`
		Kind       string  `json:"kind"`
		Note       *string `json:"note"`
		CreatedAt  int64   `json:"created_at"`
		UpdatedAt  int64   `json:"updated_at"`
	}
)

// WriteExport writes the account as an export document to w, for the
// user whose settings it carries. The persons are read and written
// ExportBatch at a time, in one snapshot of the account; flush, when not
// nil, runs after each batch, so that the document leaves as it is made.
// Until the first batch is read (or 64 KiB are), the document waits in a
// buffer, so that an error in the first reads can still be answered as
// one. It returns how many persons it wrote.
func WriteExport(ctx context.Context, st *store.Store, accountID, userID int64, w io.Writer, flush func() error) (persons int, err error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as the API writes: an export is no HTML page
	// encode writes v after sep, without the encoder's newline.
	encode := func(sep string, v any) error {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return err
		}
		bw.WriteString(sep)
		_, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	}
	send := func() error {
		if err := bw.Flush(); err != nil {
			return err
		}
		if flush != nil {
			return flush()
		}
		return nil
	}
	err = st.ReadAccount(ctx, accountID, func(r *store.AccountReader) error {
		head, err := readHead(ctx, r, userID, st.Now().Unix())
		if err != nil {
			return err
		}
		if err := enc.Encode(head); err != nil {
			return err
		}
		// The head's object stays open for the persons, one a line.
		bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("}\n")))
		bw.WriteString(`,"persons":[`)
		sep := "\n"
		for after := int64(0); ; {
			batch, err := r.Persons(ctx, after, ExportBatch)
			if err != nil {
				return err
			}
			for i := range batch {
				if err := encode(sep, exportPersonOf(&batch[i])); err != nil {
					return err
				}
				sep = ",\n"
			}
			persons += len(batch)
			if len(batch) < ExportBatch {
				break
			}
			after = batch[len(batch)-1].ID
			if err := send(); err != nil {
				return err
			}
		}
		bw.WriteString("\n]}\n")
		return send()
	})
	return persons, err
}

// readHead reads what comes before the persons.
func readHead(ctx context.Context, r *store.AccountReader, userID, now int64) (exportHead, error) {
	h := exportHead{Version: ExportVersion, ExportedAt: now}
	us, err := r.UserSettings(ctx, userID)
	if err != nil {
		return h, err
	}
	h.Settings = exportSettings{Timezone: us.Timezone, Reminders: exportReminders{SendAt: us.Reminders.SendAt, Days: us.Reminders.Days}}
	cats, err := r.TaskCategories(ctx)
	if err != nil {
		return h, err
	}
	h.TaskCategories = rowsOf(cats, func(c store.TaskCategory) exportCategory {
		return exportCategory{ID: c.ID, Name: c.Name, Color: c.Color, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
	})
	genders, err := r.Genders(ctx)
	if err != nil {
		return h, err
	}
	h.Genders = rowsOf(genders, func(g store.Gender) exportGender {
		return exportGender{ID: g.ID, Name: g.Name, Position: g.Position, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	})
	types, err := r.RelationshipTypes(ctx)
	if err != nil {
		return h, err
	}
	h.RelationshipTypes = rowsOf(types, func(t store.RelationshipType) exportRelationshipType {
		return exportRelationshipType{Name: t.Name, NameReverse: t.NameReverse, Group: t.Group, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
	})
	tags, err := r.Tags(ctx)
	if err != nil {
		return h, err
	}
	h.Tags = rowsOf(tags, func(t store.Tag) exportTag {
		return exportTag{Name: t.Name, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
	})
	journals, err := r.Journals(ctx)
	if err != nil {
		return h, err
	}
	h.Journals = rowsOf(journals, func(j store.JournalRecord) exportJournal {
		return exportJournal{Name: j.Name, CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt,
			Entries: rowsOf(j.Entries, func(en store.Entry) exportEntry {
				return exportEntry{Year: en.Year, Month: en.Month, Day: en.Day, Body: en.Body, CreatedAt: en.CreatedAt, UpdatedAt: en.UpdatedAt}
			})}
	})
	return h, nil
}

// rowsOf is each row of rows as the export writes it. It is never nil, so
// that no rows are written as [], not null.
func rowsOf[T, U any](rows []T, export func(T) U) []U {
	out := make([]U, len(rows))
	for i, row := range rows {
		out[i] = export(row)
	}
	return out
}

// fields are the appearance's fields, in their order.
func (a *exportAppearance) fields() []**string {
	return []**string{&a.Build, &a.DistinctiveMarks, &a.DressStyle, &a.EyeColor, &a.EyeShape, &a.FaceShape, &a.FacialHair, &a.Glasses, &a.HairColor, &a.HairLength, &a.HairType, &a.Height, &a.Piercings, &a.Scars, &a.SkinTone, &a.Tatoos, &a.Voice, &a.Weight}
}

// appearanceAt is, for each of exportAppearance's fields, the index of its
// name in store.AppearanceFields. A field there that exportAppearance
// lacks, or names out of order, stops the program at its start: any test
// finds it.
var appearanceAt = func() []int {
	t := reflect.TypeFor[exportAppearance]()
	if t.NumField() != len(store.AppearanceFields) {
		panic("transfer: exportAppearance does not have every field of store.AppearanceFields")
	}
	at := make([]int, t.NumField())
	for i := range at {
		name := t.Field(i).Tag.Get("json")
		at[i] = slices.Index(store.AppearanceFields, name)
		if at[i] < 0 || i > 0 && name < t.Field(i-1).Tag.Get("json") {
			panic("transfer: exportAppearance's " + name + " is not in store.AppearanceFields, or out of order")
		}
	}
	return at
}()

func exportPersonOf(p *store.PersonRecord) exportPerson {
	var look exportAppearance
	for i, f := range look.fields() {
		*f = p.Appearance[appearanceAt[i]]
	}
	out := exportPerson{
		UID: p.UID, FirstName: p.FirstName, LastName: p.LastName, MiddleName: p.MiddleName, Nickname: p.Nickname,
		MaidenName: p.MaidenName, Prefix: p.Prefix, Suffix: p.Suffix, HowWeMet: p.HowWeMet,
		MaritalStatus: p.MaritalStatus, KidsStatus: p.KidsStatus, CanBeDeleted: p.CanBeDeleted, IsListed: p.IsListed,
		Age: exportAgeOf(p.Age), PhysicalAppearance: look, VCardExtra: p.VCardExtra, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
	}
	if p.Gender != nil {
		out.GenderID = &p.Gender.ID
	}
	if c := p.StayInTouch; c != nil {
		out.StayInTouch = &exportCadence{EveryDays: c.EveryDays, SinceOn: c.SinceOn, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
	}
	out.ContactDetails = rowsOf(p.ContactDetails, func(d store.ContactDetail) exportContactDetail {
		return exportContactDetail{Kind: d.Kind, Label: d.Label, Position: d.Position, Value: d.Value,
			Network: d.Network, Street: d.Street, City: d.City, PostalCode: d.PostalCode, Region: d.Region, Country: d.Country,
			CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
	})
	out.ImportantDates = rowsOf(p.ImportantDates, func(d store.ImportantDate) exportImportantDate {
		return exportImportantDate{Label: d.Label, Year: d.Year, Month: d.Month, Day: d.Day,
			RemindYearly: d.RemindYearly, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
	})
	out.Notes = rowsOf(p.Notes, func(n store.Note) exportNote {
		return exportNote{Content: n.Content, CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt}
	})
	out.Gifts = rowsOf(p.Gifts, func(g store.Gift) exportGift {
		return exportGift{Name: g.Name, Occasion: g.Occasion, URL: g.URL, Status: g.Status, Date: g.GiftedAt,
			CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	})
	out.LifeEvents = rowsOf(p.LifeEvents, func(ev store.LifeEvent) exportLifeEvent {
		return exportLifeEvent{Description: ev.Description, Comment: ev.Comment, Icon: ev.Icon, BgColor: ev.BgColor,
			TextColor: ev.TextColor, HappenedAt: ev.HappenedAt, ShouldBeReminded: ev.ShouldBeReminded,
			CreatedAt: ev.CreatedAt, UpdatedAt: ev.UpdatedAt}
	})
	out.WorkHistory = rowsOf(p.WorkHistory, func(w store.WorkEntry) exportWorkEntry {
		return exportWorkEntry{JobTitle: w.JobTitle, CompanyName: w.CompanyName, EstimatedSalary: w.EstimatedSalary,
			Duration: w.Duration, Active: w.Active, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
	})
	out.Tasks = rowsOf(p.Tasks, func(t store.Task) exportTask {
		et := exportTask{Name: t.Name, IsCompleted: t.IsCompleted, DueAt: t.DueAt, CompletedAt: t.CompletedAt,
			CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
		if t.Category != nil {
			et.TaskCategoryID = &t.Category.ID
		}
		return et
	})
	out.Interactions = rowsOf(p.Interactions, func(in store.Interaction) exportInteraction {
		return exportInteraction{HappenedOn: in.HappenedOn, Kind: in.Kind, Note: in.Note,
			CreatedAt: in.CreatedAt, UpdatedAt: in.UpdatedAt}
	})
	out.Tags = rowsOf(p.Tags, func(name string) string { return name })
	if p.Photo != nil {
		b64 := base64.StdEncoding.EncodeToString(p.Photo)
		out.Photo = &b64
	}
	out.Relationships = rowsOf(p.Relationships, func(rel store.RelationshipRecord) exportRelationship {
		return exportRelationship{ID: rel.ID, Type: rel.Type.Name, TypeReverse: rel.Type.NameReverse, Group: rel.Type.Group,
			PersonUID: rel.OtherUID, CreatedAt: rel.CreatedAt, UpdatedAt: rel.UpdatedAt}
	})
	return out
}

// exportAgeOf is the person's age as PATCH …/age takes it; nil for none.
func exportAgeOf(a store.Age) *exportAge {
	if a.Type == nil {
		return nil
	}
	return &exportAge{AgeType: *a.Type, AgeYear: a.Year, AgeMonth: a.Month, AgeDay: a.Day,
		EstimatedAge: a.Estimated, EstimatedAt: a.EstimatedAt, AgeBracket: a.Bracket,
		AddYearlyReminder: a.YearlyReminder != nil && *a.YearlyReminder}
}
