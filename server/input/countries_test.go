package input

import "testing"

func TestCountry(t *testing.T) {
	for in, want := range map[string]string{
		"DE": "DE", "fr": "FR", "Germany": "DE", "GERMANY ": "DE", "United States": "US", "united  states": "US",
		"United States of America": "US", "USA": "US", "U.S.A.": "US", "UK": "GB", "United Kingdom": "GB",
		"Great Britain": "GB", "Deutschland": "DE", "Côte d'Ivoire": "CI", "cote d’ivoire": "CI", "Ivory Coast": "CI",
		"Turkiye": "TR", "Türkiye": "TR", "Aland Islands": "AX", "Viet Nam": "VN", "Vietnam": "VN", "Korea, Republic of": "KR",
		"Curacao": "CW", "Reunion": "RE", "Saint Barthelemy": "BL", "Osterreich": "AT", "Mexico": "MX",
	} {
		if got, ok := Country(in); !ok || got != want {
			t.Errorf("Country(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "XX", "Atlantis", "U", "Allemagne", "Germany!", "usa usa"} {
		if got, ok := Country(in); ok {
			t.Errorf("Country(%q) = %q, want none", in, got)
		}
	}
}

// Every alternate is a code of the table: a typo there would store a
// country that is none.
func TestCountryAlternatesAreCodes(t *testing.T) {
	for name, code := range countryAlternates {
		if got, ok := Country(code); !ok || got != code {
			t.Errorf("%q is %q, which is no country code", name, code)
		}
		if foldName(name) != name {
			t.Errorf("%q is not as foldName writes it, so it is never found", name)
		}
	}
}
