package web

import "github.com/crier/crier/app"

// The composer's per-network tabs hold every field of each network's payload: its spec's
// Compose.Fields (network/<name>/look.go). One table drives both directions: the tabs' controls are
// rendered from it, the submitted form is read back through it into app.PostData (by building each
// payload's JSON), and a saved post's payloads fill the controls again. uploadIds is not in the
// table: the shared media (and a tab's own media, when chosen) provide it.

// formFields are a network's composer fields (none for a network without a spec).
func formFields(n app.Network) []app.FormField {
	if s := app.SpecOf(n); s != nil {
		return s.Compose.Fields
	}
	return nil
}

// fieldOfKind is the key of n's first field of kind k ("" when it has none).
func fieldOfKind(n app.Network, k app.FieldKind) string {
	for _, f := range formFields(n) {
		if f.Kind == k {
			return f.Key
		}
	}
	return ""
}

// carouselNetwork is the network whose tab has carousel slides (Instagram) and that field's key; ""
// when none has. /composer/slides serves its slides.
func carouselNetwork() (app.Network, string) {
	for _, s := range app.Specs() {
		if key := fieldOfKind(s.Network, app.KindCarousel); key != "" {
			return s.Network, key
		}
	}
	return "", ""
}
