package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// contactDetail creates a contact detail through the API and returns its
// id.
func (e *env) contactDetail(key, personID, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/contact-details?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create contact detail: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

var contactDetailKeys = []string{"id", "object", "kind", "label", "position", "value", "network",
	"street", "city", "postal_code", "region", "country", "created_at", "updated_at"}

// nulls are the body fragments of these fields set to null.
func nulls(keys ...string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = `"` + k + `":null`
	}
	return out
}

// addressNulls are the fields of an address, null on every other kind.
var addressNulls = nulls("street", "city", "postal_code", "region", "country")

func TestContactDetailCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	path := "/api/persons/" + pid + "/contact-details"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	postJSON := func(body string) req { return req{method: "POST", path: path, key: key, body: body} }
	now := fmt.Sprint(e.clock.Now().Unix())
	long := func(n int) string { return strings.Repeat("x", n) }
	badURL := errBody(422, "The value field must be a valid URL.")
	badCountry := errBody(422, "The selected country is invalid.")
	noAddress := errBody(422, "The street field is required when none of city / postal code / region / country are present.")
	e.run(t, []scenario{
		// Each kind, and what it keeps.
		{"an email", post("kind=email&label=work&value=Jim.Halpert@DunderMifflin.com"), 201,
			append([]string{`"object":"contact_detail"`, `"kind":"email"`, `"label":"work"`, `"position":1`, `"value":"Jim.Halpert@DunderMifflin.com"`,
				`"network":null`, `"created_at":` + now, `"updated_at":` + now}, addressNulls...)},
		{"a phone in free form", post("kind=phone&label=mobile&value=" + url.QueryEscape("+1 (570) 555-0100 ext. 12")), 201,
			append([]string{`"kind":"phone"`, `"label":"mobile"`, `"position":1`, `"value":"+1 (570) 555-0100 ext. 12"`, `"network":null`}, addressNulls...)},
		{"a phone as a JSON number", postJSON(`{"kind":"phone","value":5705550101}`), 201, []string{`"value":"5705550101"`, `"position":2`, `"label":null`}},
		{"a phone in other digits", post("kind=phone&value=" + url.QueryEscape("٠١٢٣")), 201, []string{`"value":"٠١٢٣"`}},
		{"a website", post("kind=website&label=blog&value=" + url.QueryEscape("HTTPS://Example.com/jim?tab=1#top")), 201,
			append([]string{`"kind":"website"`, `"value":"HTTPS://Example.com/jim?tab=1#top"`, `"network":null`}, addressNulls...)},
		{"a website over http with a port", post("kind=website&value=http://localhost:8080"), 201, []string{`"value":"http://localhost:8080"`}},
		{"a social profile", post("kind=social&network=mastodon&value=@jim@example.social"), 201,
			append([]string{`"kind":"social"`, `"network":"mastodon"`, `"value":"@jim@example.social"`, `"label":null`}, addressNulls...)},
		{"a social profile as a URL", post("kind=social&network=LinkedIn&value=https://www.linkedin.com/in/jim"), 201,
			[]string{`"network":"LinkedIn"`, `"value":"https://www.linkedin.com/in/jim"`}},
		{"a whole address, the country in lower case", postJSON(`{"kind":"address","label":"home","street":"1725 Slough Avenue\nSuite 200","city":"Scranton","postal_code":"18505","region":"PA","country":"us"}`), 201,
			[]string{`"kind":"address"`, `"label":"home"`, `"street":"1725 Slough Avenue\nSuite 200"`, `"city":"Scranton"`, `"postal_code":"18505"`,
				`"region":"PA"`, `"country":"US"`, `"value":null`, `"network":null`, `"position":1`}},
		{"an address of a city alone", post("kind=address&city=Stamford"), 201,
			append([]string{`"city":"Stamford"`, `"position":2`}, nulls("street", "postal_code", "region", "country")...)},
		{"an address of a country alone", post("kind=address&country=fR"), 201, []string{`"country":"FR"`}},
		// A country may be written out too, as the web form's country field
		// takes it (web-app.md §9): it is kept as its code.
		{"a country's name", post("kind=address&country=France"), 201, []string{`"country":"FR"`}},
		{"a country's name as people write it", post("kind=address&country=usa"), 201, []string{`"country":"US"`}},
		{"the reserved code UK, as a name", post("kind=address&country=UK"), 201, []string{`"country":"GB"`}},
		{"a name without its accents", postJSON(`{"kind":"address","country":"cote d’ivoire"}`), 201, []string{`"country":"CI"`}},
		{"a name in any case and spacing", post("kind=address&country=++united+++STATES+"), 201, []string{`"country":"US"`}},
		{"a free-text label, trimmed", post("kind=phone&value=1&label=++Grandma's+landline+"), 201, []string{`"label":"Grandma's landline"`}},
		{"a position", post("kind=email&value=first@example.com&position=0"), 201, []string{`"position":0`}},
		{"a negative position as a string", postJSON(`{"kind":"email","value":"before@example.com","position":"-5"}`), 201, []string{`"position":-5`}},
		{"fields of other kinds are ignored", post("kind=email&value=x@example.com&city=Paris&network=x&street=y&country=XX"), 201,
			append([]string{`"value":"x@example.com"`, `"network":null`}, addressNulls...)},
		{"an address ignores value and network", post("kind=address&city=Paris&value=x&network=y"), 201, []string{`"value":null`, `"network":null`}},

		// Kind.
		{"no kind", post("value=x@example.com"), 422, errBody(422, "The kind field is required.")},
		{"an empty kind", post("kind=+&value=x@example.com"), 422, errBody(422, "The kind field is required.")},
		{"an unknown kind", post("kind=fax&value=555"), 422, errBody(422, "The selected kind is invalid.")},
		{"a kind in capitals", post("kind=EMAIL&value=x@example.com"), 422, errBody(422, "The selected kind is invalid.")},
		{"a kind of the wrong type", postJSON(`{"kind":["email"],"value":"x@example.com"}`), 422, errBody(422, "The kind field must be a string.")},

		// Email.
		{"an email without value", post("kind=email"), 422, errBody(422, "The value field is required when kind is email.")},
		{"not an email", post("kind=email&value=not-an-email"), 422, errBody(422, "The value field must be a valid email address.")},
		{"an email with a name", post("kind=email&value=" + url.QueryEscape("Jim <jim@example.com>")), 422, errBody(422, "The value field must be a valid email address.")},
		{"an email with a space", post("kind=email&value=" + url.QueryEscape("jim @example.com")), 422, errBody(422, "The value field must be a valid email address.")},
		{"an oversized email", post("kind=email&value=" + long(244) + "@example.com"), 422,
			errBody(422, "The value field must not be greater than 255 characters.")},
		{"an email of the wrong type", postJSON(`{"kind":"email","value":{"a":"x@example.com"}}`), 422, errBody(422, "The value field must be a string.")},

		// Phone.
		{"a phone of spaces", post("kind=phone&value=+++"), 422, errBody(422, "The value field is required when kind is phone.")},
		{"a phone of spaces in JSON", postJSON(`{"kind":"phone","value":"   "}`), 422, errBody(422, "The value field is required when kind is phone.")},
		{"a phone without a digit", post("kind=phone&value=call+me"), 422, errBody(422, "The value field format is invalid.")},
		{"a phone of 65 characters", post("kind=phone&value=" + strings.Repeat("5", 65)), 422,
			errBody(422, "The value field must not be greater than 64 characters.")},
		{"a phone with a line break", postJSON(`{"kind":"phone","value":"555\n0100"}`), 422, errBody(422, "The value field format is invalid.")},

		// Website.
		{"a website without value", post("kind=website"), 422, errBody(422, "The value field is required when kind is website.")},
		{"an ftp website", post("kind=website&value=ftp://x"), 422, badURL},
		{"a website without a host", post("kind=website&value=http://"), 422, badURL},
		{"a website with a port and no host", post("kind=website&value=http://:80"), 422, badURL},
		{"a website without a scheme", post("kind=website&value=example.com"), 422, badURL},
		{"a website with one slash", post("kind=website&value=https:/example.com"), 422, badURL},
		{"a website with a space", post("kind=website&value=" + url.QueryEscape("https://example.com/a b")), 422, badURL},
		{"a javascript website", post("kind=website&value=" + url.QueryEscape("javascript://alert(1)")), 422, badURL},
		{"an oversized website", post("kind=website&value=https://example.com/" + long(236)), 422,
			errBody(422, "The value field must not be greater than 255 characters.")},

		// Social.
		{"a social profile without network", post("kind=social&value=@jim"), 422, errBody(422, "The network field is required when kind is social.")},
		{"a social profile without value", post("kind=social&network=instagram"), 422, errBody(422, "The value field is required when kind is social.")},
		{"a social profile without either", post("kind=social"), 422,
			[]string{`"message":"The network field is required when kind is social. (and 1 more error)"`, `"value":["The value field is required when kind is social."]`}},
		{"an oversized network", post("kind=social&value=@jim&network=" + long(65)), 422,
			errBody(422, "The network field must not be greater than 64 characters.")},
		{"an oversized handle", post("kind=social&network=x&value=" + long(256)), 422,
			errBody(422, "The value field must not be greater than 255 characters.")},

		// Address.
		{"an address of nothing", post("kind=address"), 422, noAddress},
		{"an address of blanks", post("kind=address&street=+&city=&country=+"), 422, noAddress},
		{"an unknown country", post("kind=address&city=x&country=XX"), 422, badCountry},
		{"a country name that is none", post("kind=address&city=x&country=Atlantis"), 422, badCountry},
		{"a country name in another language Kith does not know", post("kind=address&city=x&country=Allemagne"), 422, badCountry},
		{"a bad country alone is one error", post("kind=address&country=XX"), 422, []string{`"message":"The selected country is invalid."`, `"errors":{"country":`}},
		{"an oversized street", post("kind=address&street=" + long(256)), 422, errBody(422, "The street field must not be greater than 255 characters.")},
		{"an oversized city", post("kind=address&city=" + strings.Repeat("é", 256)), 422, errBody(422, "The city field must not be greater than 255 characters.")},
		{"an oversized postal code", post("kind=address&city=x&postal_code=" + long(256)), 422, errBody(422, "The postal code field must not be greater than 255 characters.")},
		{"an oversized region", post("kind=address&city=x&region=" + long(256)), 422, errBody(422, "The region field must not be greater than 255 characters.")},
		{"a city with a line break", postJSON(`{"kind":"address","city":"Scranton\nPA"}`), 422, errBody(422, "The city field format is invalid.")},
		{"a street with a NUL", postJSON(`{"kind":"address","street":"1 Main\u0000St"}`), 422, errBody(422, "The street field format is invalid.")},
		{"several errors", post("kind=address&street=" + long(256) + "&country=Atlantis"), 422,
			[]string{`"message":"The street field must not be greater than 255 characters. (and 1 more error)"`, `"country":["The selected country is invalid."]`}},

		// Every kind.
		{"an oversized label", post("kind=phone&value=1&label=" + long(256)), 422, errBody(422, "The label field must not be greater than 255 characters.")},
		{"a position that is not an integer", post("kind=phone&value=1&position=first"), 422, errBody(422, "The position field must be an integer.")},
		{"a fractional position", postJSON(`{"kind":"phone","value":"1","position":1.5}`), 422, errBody(422, "The position field must be an integer.")},
		{"a body that is not JSON", req{method: "POST", path: path, key: key, body: `{"kind":`}, 400, nil},
		{"a missing person", req{method: "POST", path: "/api/persons/999/contact-details?kind=phone&value=1", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "POST", path: "/api/persons/999/contact-details?kind=fax", key: key}, 404, errBody(404, "Person not found.")},
		{"a person id that is not a number", req{method: "POST", path: "/api/persons/jim/contact-details?kind=phone&value=1", key: key}, 404, errBody(404, "Person not found.")},
		{"no key", req{method: "POST", path: path + "?kind=phone&value=1"}, 401, errBody(401, "Unauthenticated.")},
	})
	if n := e.count(`SELECT count(*) FROM contact_details`); n != 21 {
		t.Errorf("%d contact details, want the 21 that got 201", n)
	}
}

func TestContactDetailListAndShow(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	list := func(person, query string) resp {
		return e.do(req{method: "GET", path: "/api/persons/" + person + "/contact-details?" + query, key: key})
	}
	if r := list(jim, ""); r.code != 200 || r.body != `{"data":[]}`+"\n" {
		t.Errorf("no details yet: %d %s", r.code, r.body)
	}
	// Made out of order: the list sorts them.
	social := e.contactDetail(key, jim, "kind=social&network=mastodon&value=@jim@example.social")
	site := e.contactDetail(key, jim, "kind=website&value=https://example.com")
	home := e.contactDetail(key, jim, "kind=address&city=Scranton")
	mobile := e.contactDetail(key, jim, "kind=phone&value=555-0100")
	work := e.contactDetail(key, jim, "kind=email&value=jim@dundermifflin.com")             // position 1
	private := e.contactDetail(key, jim, "kind=email&value=jim@example.com")                // position 2
	first := e.contactDetail(key, jim, "kind=email&value=first@example.com&position=0")     // first of the emails
	tie := e.contactDetail(key, jim, "kind=email&value=tie@example.com&position=2")         // after private: the same position, a higher id
	office := e.contactDetail(key, jim, "kind=phone&value=555-0199&label=work&position=-1") // before mobile
	e.contactDetail(key, pam, "kind=email&value=pam@example.com")

	ids := func(r resp) string {
		t.Helper()
		if r.code != 200 {
			t.Fatalf("list: %d %s", r.code, r.body)
		}
		var out []string
		for _, item := range keysOf(t, r.json(t), "data")["data"].([]any) {
			out = append(out, fmt.Sprint(keysOf(t, item, contactDetailKeys...)["id"]))
		}
		return strings.Join(out, ",")
	}
	join := func(ids ...string) string { return strings.Join(ids, ",") }
	for _, tc := range []struct{ name, query, want string }{
		{"every kind: email, phone, address, website, social; then position, then id", "", join(first, work, private, tie, office, mobile, home, site, social)},
		{"an empty kind is every kind", "kind=", join(first, work, private, tie, office, mobile, home, site, social)},
		{"emails", "kind=email", join(first, work, private, tie)},
		{"phones", "kind=phone", join(office, mobile)},
		{"addresses", "kind=address", home},
		{"websites", "kind=website", site},
		{"social profiles", "kind=social", social},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ids(list(jim, tc.query)); got != tc.want {
				t.Errorf("order %s, want %s", got, tc.want)
			}
		})
	}
	if got := ids(list(pam, "kind=phone")); got != "" {
		t.Errorf("Pam's phones: %s", got)
	}

	notFound := errBody(404, "Contact detail not found.")
	base := "/api/persons/" + jim + "/contact-details/"
	e.run(t, []scenario{
		{"an unknown kind", req{method: "GET", path: "/api/persons/" + jim + "/contact-details?kind=fax", key: key}, 422, errBody(422, "The selected kind is invalid.")},
		{"a kind of the wrong type", req{method: "GET", path: "/api/persons/" + jim + "/contact-details", key: key, body: `{"kind":7}`}, 422, errBody(422, "The selected kind is invalid.")},
		{"a body that is not JSON", req{method: "GET", path: "/api/persons/" + jim + "/contact-details", key: key, body: `{"kind":`}, 400,
			errBody(400, "The request body is not valid JSON.")},
		{"details of a missing person", req{method: "GET", path: "/api/persons/999/contact-details", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with an unknown kind is still 404", req{method: "GET", path: "/api/persons/999/contact-details?kind=fax", key: key}, 404, errBody(404, "Person not found.")},
		{"show an address", req{method: "GET", path: base + home, key: key}, 200,
			append([]string{`"id":` + home, `"kind":"address"`, `"city":"Scranton"`, `"position":1`}, nulls("value", "network", "street", "label")...)},
		{"show a phone", req{method: "GET", path: base + office, key: key}, 200, []string{`"kind":"phone"`, `"value":"555-0199"`, `"label":"work"`, `"position":-1`}},
		{"a detail under the wrong person", req{method: "GET", path: "/api/persons/" + pam + "/contact-details/" + work, key: key}, 404, notFound},
		{"a missing detail", req{method: "GET", path: base + "999", key: key}, 404, notFound},
		{"a detail id that is not a number", req{method: "GET", path: base + "x", key: key}, 404, notFound},
		{"a detail id of zero", req{method: "GET", path: base + "0", key: key}, 404, notFound},
		{"a detail under a missing person", req{method: "GET", path: "/api/persons/999/contact-details/" + work, key: key}, 404, errBody(404, "Person not found.")},
		{"PATCH is not a method of a detail", req{method: "PATCH", path: base + work, key: key}, 405, errBody(405, "Method not allowed.")},
	})
}

func TestContactDetailUpdate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	e.contactDetail(key, jim, "kind=phone&value=555-0100")
	e.contactDetail(key, jim, "kind=address&city=Scranton")
	id := e.contactDetail(key, jim, "kind=phone&value=555-0199&label=work") // position 2 among the phones
	created := e.clock.Now().Unix()
	path := "/api/persons/" + jim + "/contact-details/" + id
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Contact detail not found.")
	e.run(t, []scenario{
		{"update replaces: the label not sent is cleared, the position kept", put("kind=phone&value=555-0123"), 200,
			append([]string{`"id":` + id, `"kind":"phone"`, `"value":"555-0123"`, `"label":null`, `"position":2`,
				fmt.Sprintf(`"created_at":%d`, created), `"updated_at":` + now}, addressNulls...)},
		{"a position sent moves it", put("kind=phone&value=555-0123&position=9"), 200, []string{`"position":9`}},
		{"a change of kind goes last among the new kind", req{method: "PUT", path: path, key: key,
			body: `{"kind":"address","label":"home","street":"1725 Slough Avenue","country":"us"}`}, 200,
			[]string{`"kind":"address"`, `"label":"home"`, `"street":"1725 Slough Avenue"`, `"country":"US"`, `"city":null`,
				`"value":null`, `"network":null`, `"position":2`}},
		{"a change of kind to social", put("kind=social&network=instagram&value=jimhalpert"), 200,
			append([]string{`"kind":"social"`, `"network":"instagram"`, `"value":"jimhalpert"`, `"position":1`}, addressNulls...)},
		{"a change of kind without the new kind's fields", put("kind=email&city=Scranton"), 422, errBody(422, "The value field is required when kind is email.")},
		{"a change of kind with a value that does not fit it", put("kind=email&value=555-0100"), 422, errBody(422, "The value field must be a valid email address.")},
		{"a change to website with a bad URL", put("kind=website&value=ftp://x"), 422, errBody(422, "The value field must be a valid URL.")},
		{"a change to address with a bad country", put("kind=address&country=Atlantis"), 422, errBody(422, "The selected country is invalid.")},
		{"a change to address with nothing", put("kind=address"), 422, errBody(422, "The street field is required when none of city / postal code / region / country are present.")},
		{"no kind", put("network=instagram&value=jimhalpert"), 422, errBody(422, "The kind field is required.")},
		{"an unknown kind", put("kind=fax&value=555"), 422, errBody(422, "The selected kind is invalid.")},
		{"an oversized network", put("kind=social&value=x&network=" + strings.Repeat("n", 65)), 422, errBody(422, "The network field must not be greater than 64 characters.")},
		{"an oversized value", put("kind=social&network=x&value=" + strings.Repeat("v", 256)), 422, errBody(422, "The value field must not be greater than 255 characters.")},
		{"a phone of spaces", put("kind=phone&value=+++"), 422, errBody(422, "The value field is required when kind is phone.")},
		{"a bad position", put("kind=phone&value=1&position=1e3"), 422, errBody(422, "The position field must be an integer.")},
		{"under the wrong person", req{method: "PUT", path: "/api/persons/" + pam + "/contact-details/" + id + "?kind=phone&value=1", key: key}, 404, notFound},
		{"under the wrong person with bad input is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/contact-details/" + id + "?kind=fax", key: key}, 404, notFound},
		{"under a missing person", req{method: "PUT", path: "/api/persons/999/contact-details/" + id + "?kind=phone&value=1", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing detail", req{method: "PUT", path: "/api/persons/" + jim + "/contact-details/999?kind=phone&value=1", key: key}, 404, notFound},
	})
	r := e.do(req{method: "GET", path: path, key: key})
	if !strings.Contains(r.body, `"kind":"social"`) || !strings.Contains(r.body, `"value":"jimhalpert"`) {
		t.Errorf("after the refused updates: %s", r.body)
	}
}

func TestContactDetailDeleteAndLog(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim&last_name=Halpert")
	pam := e.person(key, "first_name=Pam")
	id := e.contactDetail(key, jim, "kind=phone&value=555-0100")
	e.do(req{method: "PUT", path: "/api/persons/" + jim + "/contact-details/" + id + "?kind=website&value=https://example.com", key: key})
	notFound := errBody(404, "Contact detail not found.")
	e.run(t, []scenario{
		{"under the wrong person", req{method: "DELETE", path: "/api/persons/" + pam + "/contact-details/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "DELETE", path: "/api/persons/999/contact-details/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"delete", req{method: "DELETE", path: "/api/persons/" + jim + "/contact-details/" + id, key: key}, 204, nil},
		{"gone", req{method: "GET", path: "/api/persons/" + jim + "/contact-details/" + id, key: key}, 404, notFound},
		{"twice", req{method: "DELETE", path: "/api/persons/" + jim + "/contact-details/" + id, key: key}, 404, notFound},
	})
	for _, q := range []string{"kind=email&value=jim@example.com", "kind=address&city=Scranton", "kind=social&network=x&value=@jim"} {
		e.contactDetail(key, jim, q)
	}

	// Each write left its entry, newest first, and the refusals none.
	r := e.do(req{method: "GET", path: "/api/administration/logs", key: key})
	var got []string
	for _, item := range r.json(t)["data"].([]any) {
		a := item.(map[string]any)["attributes"].(map[string]any)
		if strings.HasPrefix(a["action"].(string), "contact_detail_") {
			got = append(got, a["action"].(string)+": "+a["description"].(string))
		}
	}
	want := []string{
		"contact_detail_creation: Added a social profile for Jim Halpert",
		"contact_detail_creation: Added an address for Jim Halpert",
		"contact_detail_creation: Added an email address for Jim Halpert",
		"contact_detail_deletion: Deleted a website for Jim Halpert",
		"contact_detail_update: Updated a website for Jim Halpert",
		"contact_detail_creation: Added a phone number for Jim Halpert",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Deleting the person deletes its details.
	e.contactDetail(key, pam, "kind=phone&value=1")
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + jim, key: key}); r.code != 204 {
		t.Fatalf("delete person: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM contact_details`); n != 1 {
		t.Errorf("%d contact details left, want Pam's 1", n)
	}
	if n := e.count(`SELECT count(*) FROM contact_details WHERE person_id = ?`, jim); n != 0 {
		t.Errorf("%d details of the deleted person", n)
	}
}

// TestContactDetailsOfAnotherAccount: an outsider cannot list, read, add
// to, change or delete another account's details, and gets the same 404
// as for a person that does not exist.
func TestContactDetailsOfAnotherAccount(t *testing.T) {
	e := newEnv(t)
	_, ada := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	jim := e.person(ada, "first_name=Jim")
	id := e.contactDetail(ada, jim, "kind=email&value=jim@example.com")
	bobs := e.person(bob, "first_name=Bob")
	bobsDetail := e.contactDetail(bob, bobs, "kind=phone&value=1")
	personGone := errBody(404, "Person not found.")
	valid := "?kind=phone&value=555"
	e.run(t, []scenario{
		{"list", req{method: "GET", path: "/api/persons/" + jim + "/contact-details", key: bob}, 404, personGone},
		{"create", req{method: "POST", path: "/api/persons/" + jim + "/contact-details" + valid, key: bob}, 404, personGone},
		{"show", req{method: "GET", path: "/api/persons/" + jim + "/contact-details/" + id, key: bob}, 404, personGone},
		{"update", req{method: "PUT", path: "/api/persons/" + jim + "/contact-details/" + id + valid, key: bob}, 404, personGone},
		{"delete", req{method: "DELETE", path: "/api/persons/" + jim + "/contact-details/" + id, key: bob}, 404, personGone},
		{"Ada's detail under Bob's person", req{method: "GET", path: "/api/persons/" + bobs + "/contact-details/" + id, key: bob}, 404,
			errBody(404, "Contact detail not found.")},
		{"Bob's detail under Ada's person, by Ada", req{method: "PUT", path: "/api/persons/" + jim + "/contact-details/" + bobsDetail + valid, key: ada}, 404,
			errBody(404, "Contact detail not found.")},
	})
	r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/contact-details/" + id, key: ada})
	if r.code != 200 || !strings.Contains(r.body, `"value":"jim@example.com"`) {
		t.Errorf("Ada's detail after Bob's tries: %d %s", r.code, r.body)
	}
}
