package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// A Monica v4 JSON export built as import-formats.md §4.2 describes it:
// the account's data (contacts, relationships, photos, documents,
// activities), its properties (journal entries) and its instance (genders,
// contact field types, life event types).

type mobj = map[string]any

const monicaStamp = "2024-05-04T10:00:00.000000Z"

// mo is a Monica object: uuid, times, properties and data collections.
func mo(uuid string, props mobj, data ...mobj) mobj {
	o := mobj{"uuid": uuid, "created_at": monicaStamp, "updated_at": monicaStamp, "properties": props}
	if len(data) > 0 {
		o["data"] = data
	}
	return o
}

// coll is a collection of objects (or, for activity, photo and document
// lists, of uuids).
func coll(kind string, values ...any) mobj {
	return mobj{"count": len(values), "type": kind, "values": values}
}

func special(date string, ageBased, yearUnknown bool) mobj {
	return mobj{"uuid": "sd-" + date, "is_age_based": ageBased, "is_year_unknown": yearUnknown,
		"date": date + "T00:00:00.000000Z", "created_at": monicaStamp, "updated_at": monicaStamp}
}

func field(uuid, typ, data string) mobj { return mo(uuid, mobj{"data": data, "type": typ}) }

func reminder(uuid, title, date, freq string, number int, delible, inactive bool) mobj {
	return mo(uuid, mobj{"initial_date": date, "title": title, "description": nil, "frequency_type": freq,
		"frequency_number": number, "delible": delible, "inactive": inactive})
}

func rel(uuid, kind, is, of string) mobj {
	return mo(uuid, mobj{"type": kind, "contact_is": is, "of_contact": of})
}

// pngDataURL is a small PNG as Monica embeds a photo.
func pngDataURL(t testing.TB) string {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for x := range 8 {
		for y := range 8 {
			img.Set(x, y, color.RGBA{uint8(x * 30), uint8(y * 30), 120, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// person is a contact's properties with its names.
func person(first, last string, more mobj) mobj {
	p := mobj{"first_name": nilIfEmpty(first), "middle_name": nil, "last_name": nilIfEmpty(last), "nickname": nil,
		"is_starred": false, "is_partial": false, "is_active": true, "is_dead": false, "tags": []any{},
		"avatar": mobj{"avatar_source": "default", "avatar_default_url": "https://monica.example/a.svg"}}
	for k, v := range more {
		p[k] = v
	}
	return p
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// monicaFixture is the export of 32 contacts covering every mapped kind
// and the tricky cases of import-formats.md §4.
func monicaFixture(t testing.TB) []byte {
	contacts := []any{
		mo("c01", person("Ada", "Byron", mobj{"middle_name": "Augusta", "nickname": "Ada L.", "gender": "g-woman",
			"job": "Analyst", "company": "Analytical Engines Ltd", "description": "Wrote the first program.",
			"food_preferences": "No fish", "stay_in_touch_frequency": 30, "first_met_through": "c02",
			"tags":      []any{"Book club, Reading", "family", "Family"},
			"birthdate": special("1985-12-10", false, false), "first_met_date": special("1833-06-05", false, false),
			"avatar": mobj{"avatar_source": "photo", "avatar_photo": "p-ada"}}),
			coll("call", mo("call-1", mobj{"called_at": "2025-01-10T18:30:00Z", "content": "About the engine", "contact_called": true,
				"emotions": []any{"happy"}})),
			coll("contact_field", field("cf-1", "cft-email", " Ada@Example.com "), field("cf-2", "cft-phone", "+44 20 7946 0958"),
				field("cf-3", "cft-twitter", "@ada"), field("cf-4", "cft-web", "https://ada.example"),
				field("cf-5", "cft-linkedin", "ada-lovelace"), field("cf-6", "cft-masto", "@ada@mastodon.example")),
			coll("debt", mo("debt-1", mobj{"amount": 25, "currency": "GBP", "status": "inprogress", "in_debt": false}),
				mo("debt-2", mobj{"amount": "12.50", "currency": "EUR", "status": "complete", "in_debt": true})),
			coll("gift", mo("gift-1", mobj{"name": "A slide rule", "comment": "brass", "url": "https://shop.example/rule",
				"amount": 40, "status": "idea", "date": "2025-12-24T00:00:00Z", "recipient": "c01", "photos": []any{}})),
			coll("note", mo("note-1", mobj{"body": "Loves poetry.\nAnd numbers.", "is_favorite": true, "favorited_at": nil})),
			coll("reminder",
				reminder("rem-1", "Wedding anniversary", "2012-07-08", "year", 1, true, false),
				reminder("rem-2", "Return the book", "2026-05-01", "one_time", 1, true, false),
				reminder("rem-3", "Water plants", "2024-01-01", "week", 2, true, false),
				reminder("rem-4", "Old call", "2023-01-01", "one_time", 1, true, false),
				reminder("rem-5", "Birthday of Ada", "2024-12-10", "year", 1, false, false),
				reminder("rem-6", "Every third year", "2020-02-02", "year", 3, true, false)),
			coll("task", mo("task-1", mobj{"title": "Send the notes", "description": "all of them", "completed": false, "completed_at": nil}),
				mo("task-2", mobj{"title": "Read Menabrea", "description": nil, "completed": true, "completed_at": "2024-02-03T09:00:00Z"})),
			coll("address", mo("addr-1", mobj{"name": "Home", "street": "12 St James's Square", "city": "London", "province": nil,
				"postal_code": "SW1Y 4JH", "latitude": 51.5, "longitude": -0.13, "country": "GB"})),
			coll("pet", mo("pet-1", mobj{"name": "Puff", "category": "cat"}), mo("pet-2", mobj{"name": "Rex", "category": nil})),
			coll("conversation", mo("conv-1", mobj{"happened_at": "2025-02-02T00:00:00Z", "contact_field_type": "cft-phone",
				"messages": []any{
					mo("msg-1", mobj{"content": "Did you see the engine?", "written_at": "2025-02-02T10:00:00Z", "written_by_me": true}),
					mo("msg-2", mobj{"content": "Yes!", "written_at": "2025-02-02T10:05:00Z", "written_by_me": false})}})),
			coll("life_event", mo("le-1", mobj{"name": nil, "note": "At the Engines Ltd", "happened_at": "2024-09-01T00:00:00Z",
				"specific_information": nil, "type": "let-job"}),
				mo("le-2", mobj{"name": nil, "note": nil, "happened_at": "2024-10-01T00:00:00Z", "type": "let-run"})),
			coll("activity", "act-1"), coll("photo", "p-ada", "p-extra"), coll("document", "doc-1")),
		mo("c02", person("Charles", "Babbage", mobj{"gender": "g-man", "birthdate": special("1966-01-01", true, false)}),
			coll("contact_field", field("cf-7", "cft-email", "charles@example.com")),
			coll("address", mo("addr-2", mobj{"name": "work", "street": "1 Dorset St", "city": "Berlin", "province": "Berlin",
				"postal_code": "10115", "country": "Germany"}),
				mo("addr-3", mobj{"name": "Summer house", "street": nil, "city": "Poseidonis", "province": "Sea", "postal_code": nil,
					"country": "Atlantis"})),
			coll("activity", "act-1")),
		mo("c03", person("", "", mobj{"nickname": "Lovey"})),
		mo("c04", person("", "Menabrea", nil)),
		mo("c05", person("", "", nil), coll("note", mo("note-5", mobj{"body": "never imported"}))),
		mo("c06", person("Annabella", "Milbanke", mobj{"is_partial": true})),
		mo("c07", person("Archie", "Ved", mobj{"is_active": false})),
		mo("c08", person("Gone", "Early", mobj{"is_dead": true, "birthdate": special("2020-04-03", false, true),
			"deceased_date": special("1852-11-27", false, false),
			"deceased_reminder": mo("rem-d", mobj{"initial_date": "1852-11-27", "title": "death", "frequency_type": "year",
				"frequency_number": 1, "delible": false, "inactive": false})})),
		mo("c09", person("Gone", "Quietly", mobj{"is_dead": true, "birthdate": special("1950-02-01", false, false)})),
		mo("c10", person("Yearless", "Birthday", mobj{"birthdate": special("2019-08-15", false, true)})),
		mo("c11", person("Bad", "Email", nil), coll("contact_field", field("cf-11", "cft-email", "not-an-email"),
			field("cf-12", "cft-phone", "555 0100"))),
		mo("c12", person("Bad", "Website", nil), coll("contact_field", field("cf-13", "cft-web", "ftp://files.example"),
			field("cf-14", "cft-unknown", "???"))),
		mo("c13", person("Sam", "Other", mobj{"gender": "g-nb"})),
		mo("c14", person("Long", "Tag", mobj{"tags": []any{strings.Repeat("x", 51), "ok"}})),
		mo("c15", person("Grace", "Hopper", mobj{"first_met_through": "c01", "stay_in_touch_frequency": 7}),
			coll("contact_field", field("cf-15", "cft-email", "GRACE@example.com"), field("cf-16", "cft-phone", "(555) 010-0200")),
			coll("note", mo("note-15a", mobj{"body": "Old note"}), mo("note-15b", mobj{"body": "New from Monica"}))),
		mo("c16", person("Pat", "Partner", nil)),
		mo("c17", person("Quinn", "Partner", nil)),
		mo("c18", person("Lone", "Friend", nil)),
		mo("c19", person("Other", "Friend", nil)),
		mo("c20", person("Has", "Stranger", nil)),
		mo("c21", person("Knows", "Skipped", nil)),
		mo("c22", person("Child", "Byron", nil)),
		mo("c23", person("Boss", "Person", nil)),
		mo("c24", person("Sub", "Ordinate", nil)),
		mo("c25", person("Future", "Caller", nil), coll("call", mo("call-25", mobj{"called_at": "2027-01-01T00:00:00Z", "content": "later"}),
			mo("call-26", mobj{"called_at": "2025-03-01 09:00:00", "content": strings.Repeat("long ", 500)}))),
		mo("c26", person("Broken", "Avatar", mobj{"avatar": mobj{"avatar_source": "photo", "avatar_photo": "p-broken"}})),
		mo("c27", person("Missing", "Avatar", mobj{"avatar": mobj{"avatar_source": "photo", "avatar_photo": "p-gone"}})),
		mo("c28", person("Company", "Only", mobj{"company": "Acme"})),
		mo("c29", person("Often", "Seen", mobj{"stay_in_touch_frequency": 5000, "gender": "g-missing"})),
		mo("c30", person("Twin", "One", nil)),
		mo("c30", person("Twin", "Two", nil)),
		mo("c31", person("Love", "Bird", nil)),
		mo("c32", person("Zed", "", mobj{"first_met_through": "c05"})),
	}
	relationships := []any{
		rel("r-1", "partner", "c16", "c17"), rel("r-2", "partner", "c17", "c16"),
		rel("r-3", "friend", "c18", "c19"),
		rel("r-4", "friend", "c20", "c99"),
		rel("r-5", "sibling", "c21", "c05"),
		rel("r-6", "child", "c01", "c22"), rel("r-7", "parent", "c22", "c01"),
		rel("r-8", "boss", "c24", "c23"), rel("r-9", "subordinate", "c23", "c24"),
		rel("r-10", "inlovewith", "c31", "c32"), rel("r-11", "lovedby", "c32", "c31"),
		rel("r-12", "ex_husband", "c31", "c18"),
		rel("r-13", "godson", "c22", "c02"),
		rel("r-14", "neighbor", "c13", "c14"),
		rel("r-15", "protege", "c02", "c15"),
		rel("r-16", "bestfriend", "c01", "c15"),
		rel("r-17", "parent", "c01", "c06"),
	}
	photo := pngDataURL(t)
	doc := mobj{
		"version": "1.0-preview.1", "app_version": "4.1.2", "export_date": "2026-03-01T10:00:00.000000Z",
		"url": "https://monica.example", "exported_by": "u-1",
		"account": mobj{"uuid": "acct-1", "created_at": monicaStamp, "updated_at": monicaStamp,
			"data": []any{
				coll("user", mo("u-1", mobj{"first_name": "Me", "email": "me@example.com", "google2fa_secret": "no"})),
				coll("contact", contacts...),
				coll("relationship", relationships...),
				coll("addressbook", mo("ab-1", mobj{"name": "default"})),
				coll("photo", mo("p-ada", mobj{"original_filename": "ada.png", "filesize": 100, "mime_type": "image/png", "dataUrl": photo}),
					mo("p-extra", mobj{"original_filename": "x.png", "filesize": 100, "mime_type": "image/png", "dataUrl": photo}),
					mo("p-broken", mobj{"original_filename": "b.png", "filesize": 3, "mime_type": "image/png", "dataUrl": "data:image/png;base64,AAAA"})),
				coll("document", mo("doc-1", mobj{"original_filename": "cv.pdf", "filesize": 10, "mime_type": "application/pdf",
					"dataUrl": "data:application/pdf;base64,JVBERg==", "type": "pdf", "number_of_downloads": 0})),
				coll("activity", mo("act-1", mobj{"summary": "Dinner", "description": "At the club", "happened_at": "2025-02-01T19:00:00Z",
					"type": "at-1"})),
			},
			"properties": mobj{"number_of_invitations_sent": 0, "default_gender": "g-man",
				"journal_entries": []any{
					mo("j-1", mobj{"type": "entry", "title": "A good day", "post": "We met.", "date": "2025-05-01T00:00:00Z"}),
					mo("j-2", mobj{"type": "entry", "title": "Later", "post": "Tea.", "date": "2025-05-01T00:00:00Z"}),
					mo("j-3", mobj{"type": "entry", "title": "", "post": "Only a post.", "date": "2025-06-02T00:00:00Z"}),
					mo("j-4", mobj{"type": "day", "rate": 3, "comment": "meh", "day": 3, "month": 6, "year": 2025}),
				},
				"modules": []any{}, "reminder_rules": []any{}, "audit_logs": []any{}},
			"instance": mobj{
				"activity_types":           []any{mo("at-1", mobj{"name": "Dinner", "translation_key": "dinner", "location_type": nil})},
				"activity_type_categories": []any{},
				"contact_field_types": []any{
					mo("cft-email", mobj{"name": "Email", "fontawesome_icon": "fa fa-envelope-open-o", "protocol": "mailto:", "delible": false, "type": "email"}),
					mo("cft-phone", mobj{"name": "Phone", "protocol": "tel:", "delible": false, "type": "phone"}),
					mo("cft-twitter", mobj{"name": "Twitter", "protocol": nil, "delible": true}),
					mo("cft-linkedin", mobj{"name": "LinkedIn", "protocol": nil, "delible": true}),
					mo("cft-web", mobj{"name": "Website", "protocol": nil, "delible": true}),
					mo("cft-masto", mobj{"name": "Mastodon", "protocol": nil, "delible": true}),
				},
				"genders": []any{mo("g-man", mobj{"name": "Man", "type": "M"}), mo("g-woman", mobj{"name": "woman", "type": "F"}),
					mo("g-nb", mobj{"name": "Non-binary", "type": "O"})},
				"life_event_types": []any{
					mo("let-job", mobj{"translation_key": "new_job", "core_monica_data": true, "category": "lec-1"}),
					mo("let-run", mobj{"name": "Ran a marathon", "translation_key": nil, "core_monica_data": false}),
				},
				"life_event_categories": []any{},
			},
		},
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// monicaContacts is an export of n plain contacts, each with a name, an
// email, a phone, a note and a tag, for the benchmark.
func monicaContacts(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"version":"1.0-preview.1","app_version":"4.1.2","export_date":"2026-03-01T10:00:00Z","account":{"uuid":"a","data":[` +
		`{"count":` + fmt.Sprint(n) + `,"type":"contact","values":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"uuid":"c-%d","created_at":%q,"updated_at":%q,"properties":{"first_name":"First%d","last_name":"Last%d",`+
			`"is_partial":false,"is_active":true,"is_dead":false,"tags":["Group %d"],"birthdate":{"uuid":"b%d","is_age_based":false,`+
			`"is_year_unknown":false,"date":"1980-0%d-1%dT00:00:00Z"}},"data":[{"count":2,"type":"contact_field","values":[`+
			`{"uuid":"e%d","properties":{"data":"person%d@example.com","type":"t-email"}},{"uuid":"p%d","properties":{"data":"+1 555 %07d","type":"t-phone"}}]},`+
			`{"count":1,"type":"note","values":[{"uuid":"n%d","created_at":%q,"properties":{"body":"Met at event %d."}}]}]}`,
			i, monicaStamp, monicaStamp, i, i, i%20, i, 1+i%9, i%10, i, i, i, i, i, monicaStamp, i)
	}
	b.WriteString(`]}],"properties":{"journal_entries":[]},"instance":{"genders":[],"contact_field_types":[` +
		`{"uuid":"t-email","properties":{"name":"Email","protocol":"mailto:","type":"email"}},` +
		`{"uuid":"t-phone","properties":{"name":"Phone","protocol":"tel:","type":"phone"}}]}}}`)
	return []byte(b.String())
}
