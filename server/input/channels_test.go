package input

import "testing"

func TestSplitTopic(t *testing.T) {
	for raw, want := range map[string]string{
		"https://ntfy.sh/ada":             "https://ntfy.sh/ ada",
		"https://push.example/ntfy/ada/":  "https://push.example/ntfy/ ada",
		"http://10.0.0.2:8080/kith?x=1#y": "http://10.0.0.2:8080/ kith",
	} {
		base, topic, err := SplitTopic(raw)
		if err != nil || base+" "+topic != want {
			t.Errorf("SplitTopic(%q) = %q %q %v, want %s", raw, base, topic, err, want)
		}
	}
	for _, raw := range []string{"https://ntfy.sh", "https://ntfy.sh/"} {
		if _, _, err := SplitTopic(raw); err == nil {
			t.Errorf("SplitTopic(%q) found a topic", raw)
		}
	}
}
