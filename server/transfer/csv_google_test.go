package transfer

import (
	"testing"
)

// TestCSVGoogle reads Google's current export (§5.2): every column of
// its table, several values of a cell, labels, the primary "* ", the
// fallbacks of a row without a first name, and the problems of values
// Kith's rules refuse.
func TestCSVGoogle(t *testing.T) {
	r, recs := mustReadCSV(t, csvFixture(t, "google.csv"), csvOpts("", nil))
	if r.Format() != CSVGoogle {
		t.Errorf("format %q, want google", r.Format())
	}
	checkStrings(t, "ignored columns", r.IgnoredColumns(), []string{"Phonetic First Name", "Phonetic Middle Name",
		"Phonetic Last Name", "File As", "Organization Department", "Photo", "Relation 1 - Label", "Relation 1 - Value",
		"Custom Field 1 - Label", "Custom Field 1 - Value"})
	if len(recs) != 7 || r.Rows() != 7 {
		t.Fatalf("%d records, %d rows, want 7", len(recs), r.Rows())
	}
	lines := []int{2, 5, 6, 7, 8, 9, 10} // Ada's notes and second address hold line breaks
	for i, rec := range recs {
		if rec.Line != lines[i] {
			t.Errorf("record %d starts on line %d, want %d", i, rec.Line, lines[i])
		}
	}

	ada := recs[0]
	if ada.Name != "Ada Lovelace" {
		t.Errorf("name %q", ada.Name)
	}
	checkPerson(t, ada,
		`first_name "Ada"`, `middle_name "King"`, `last_name "Lovelace"`, `nickname "Ada"`, `prefix "Lady"`,
		`tags ["Friends" "Book club"]`,
		`email 1 [home] "ada@home.example"`, // "* Home" is the primary one: first of its kind
		`email 2 [work] "ada@work.example"`,
		`email 3 [work] "ada.l@work.example"`,
		`phone 1 [mobile] "+44 20 7946 0958"`,
		`phone 2 [Grandma's landline] "020 7946 0000"`,
		`address 1 [home] street="12 St James's Square\nFlat 2\nPO Box 7" city="London" region="" postal_code="SW1Y 4JH" country="GB"`,
		`address 2 [work] street="1 Engine Way\nCambridge" city="" region="" postal_code="" country=""`,
		`website 1 [Blog] "https://ada.example/blog"`,
		// 1815 is no year of an age (1900 at least): a birthday date.
		`date [birthday] 1815-12-10 remind=true`,
		`date [anniversary] 1835-07-08 remind=true`,
		`date [First met] ---03-15 remind=false`,
		`note "First programmer.\nLoved poetry."`,
		`work "Programmer" at "Analytical Engines Ltd" active=true`)
	checkProblems(t, ada)
	p := ada.Person
	if !p.IsListed || !p.CanBeDeleted || p.MaritalStatus != "unknown" || p.KidsStatus != "unknown" || p.Gender != nil ||
		p.UID != nil || p.CreatedAt != 0 || p.UpdatedAt != 0 {
		t.Errorf("Ada's person: %+v", p.Person)
	}

	checkPerson(t, recs[1],
		`first_name "Grace"`, `last_name "Hopper"`,
		`email 1 [work] "grace@navy.example"`,
		`phone 1 [work] "555-0100"`, `phone 2 [work] "555-0101"`,
		`address 1 [work] street="" city="Arlington" region="VA" postal_code="" country="US"`,
		`address 2 [work] street="" city="Washington" region="DC" postal_code="" country="US"`,
		`date [birthday] ---12-09 remind=true`)
	if recs[1].Person.Tags != nil {
		t.Errorf("Grace's tags %q: myContacts is no tag", recs[1].Person.Tags)
	}

	// No first name: the nickname is, and stays the nickname too.
	checkPerson(t, recs[2], `first_name "Bobby"`, `last_name "Tables"`, `nickname "Bobby"`,
		`email 1 [-] "bobby@example.com"`)
	checkProblems(t, recs[2], "Birthday: not a date: 1990-02-30")

	// No name at all, even with an email and a phone: skipped.
	if rec := recs[3]; rec.Skipped != "the row has no name" || rec.Person != nil || rec.Name != "" || rec.Line != 7 {
		t.Errorf("the row without a name: %+v", rec)
	}

	// The company, when nothing else names the row; a job needs a title.
	checkPerson(t, recs[4], `first_name "Acme Corp"`, `phone 1 [work] "555-0199"`)
	checkProblems(t, recs[4], "Organization Name: The job title field is required.")

	// The last name alone is the first name; the problems leave the rest.
	if recs[5].Name != "Curie" {
		t.Errorf("name %q", recs[5].Name)
	}
	checkPerson(t, recs[5], `first_name "Curie"`, `age exact 1967-11-07 remind=true`,
		`address 1 [-] street="" city="" region="Deep Sea, Atlantis" postal_code="" country=""`)
	checkProblems(t, recs[5],
		"Event 1 - Value: not a date: last spring",
		"E-mail 1 - Value: The value field must be a valid email address.",
		"Website 1 - Value: The value field must be a valid URL.")

	// File As names a row that has nothing else; a tag comes once.
	checkPerson(t, recs[6], `first_name "Dr. Who"`, `tags ["Time Lords"]`)
}

// TestCSVGoogleOld reads Google's export before 2024: Given, Additional
// and Family Name, Maiden Name, Group Membership, "… - Type" labels, the
// first organization, and Name when the three name columns are empty.
func TestCSVGoogleOld(t *testing.T) {
	r, recs := mustReadCSV(t, csvFixture(t, "google-old.csv"), csvOpts("", nil))
	if r.Format() != CSVGoogle {
		t.Errorf("format %q, want google", r.Format())
	}
	checkStrings(t, "ignored columns", r.IgnoredColumns(), []string{"Yomi Name", "Given Name Yomi",
		"Additional Name Yomi", "Family Name Yomi", "Initials", "Short Name", "Gender", "Location", "Billing Information",
		"Directory Server", "Mileage", "Occupation", "Hobby", "Sensitivity", "Priority", "Subject", "Language", "Photo",
		"Organization 1 - Type", "Organization 1 - Yomi Name", "Organization 1 - Department", "Organization 1 - Symbol",
		"Organization 1 - Location", "Organization 1 - Job Description", "Organization 2 - Type",
		"Organization 2 - Name", "Organization 2 - Title"})
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	checkPerson(t, recs[0],
		`first_name "Marie"`, `last_name "Curie"`, `maiden_name "Skłodowska"`, `age exact 1967-11-07 remind=true`,
		`tags ["Science"]`,
		`email 1 [home] "marie@example.fr"`, `email 2 [work] "m.curie@sorbonne.example"`,
		`phone 1 [mobile] "+33 1 23 45 67 89"`,
		`address 1 [work] street="11 Rue Pierre et Marie Curie" city="Paris" region="" postal_code="75005" country="FR"`,
		`website 1 [Profile] "https://curie.example"`,
		`date [anniversary] 1995-07-26 remind=true`,
		`note "Two Nobel prizes"`,
		`work "Professor" at "Sorbonne" active=true`)
	checkProblems(t, recs[0])
	checkPerson(t, recs[1], `first_name "Prince"`)
	if recs[1].Line != 3 {
		t.Errorf("Prince on line %d", recs[1].Line)
	}
}
