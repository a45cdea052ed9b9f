package api

import (
	"testing"

	"github.com/crier/crier/app"
)

func TestPlatformFieldOfEveryNetwork(t *testing.T) {
	t.Parallel()
	var p HealthPlatforms
	seen := map[*HealthPlatformStatus]app.Network{}
	for _, n := range app.Networks {
		f := platformField(&p, n)
		if f == nil {
			t.Fatalf("%s has no field in HealthPlatforms", n)
		}
		if other, dup := seen[f]; dup {
			t.Fatalf("%s and %s share a field", n, other)
		}
		seen[f] = n
	}
	p.GOOGLEBUSINESS.Note = "here"
	if platformField(&p, app.GoogleBusiness).Note != "here" {
		t.Fatal("GOOGLE_BUSINESS is not the GOOGLEBUSINESS field")
	}
	if platformField(&p, "FRIENDSTER") != nil {
		t.Fatal("an unknown network has a field")
	}
}
