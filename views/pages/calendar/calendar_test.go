package calendar

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"github.com/crier/crier/views/pages/posts"
)

// Each combination of networks is drawn once, as wide as its marks, in order of first appearance
// (month cells, then week slots); entries with the same networks reference the same symbol.
func TestEntriesReferenceTheirCombinationOfNetworks(t *testing.T) {
	x, li, bs := posts.Net{Code: "TWITTER", Name: "X"}, posts.Net{Code: "LINKEDIN", Name: "LinkedIn"}, posts.Net{Code: "BLUESKY", Name: "Bluesky"}
	d := Data{View: "month", Sprite: []string{"BLUESKY", "LINKEDIN", "TWITTER"}, Weeks: [][]Day{{
		{Key: "2027-03-01", Entries: []Entry{{Title: "a", Status: "SCHEDULED", Networks: []posts.Net{x}}, {Title: "b", Status: "DRAFT", Networks: []posts.Net{x, li}}}},
		{Key: "2027-03-02", Entries: []Entry{{Title: "c", Status: "SCHEDULED", Networks: []posts.Net{x}}, {Title: "d", Status: "DRAFT"}}},
	}}, Hours: []HourRow{{Cells: []HourCell{{Slots: []Slot{{Entries: []Entry{{Title: "e", Status: "SCHEDULED", Networks: []posts.Net{bs, li, x}}}}}}}}}}

	var buf bytes.Buffer
	require.NoError(t, GridPart(d).Render(context.Background(), &buf))
	doc, err := goquery.NewDocumentFromReader(&buf)
	require.NoError(t, err)

	sets := doc.Find(`symbol[id^="ns-"]`)
	require.Equal(t, 3, sets.Length())
	for i, want := range []struct{ id, box, uses string }{
		{"ns-0", "0 0 16 16", "#net-TWITTER"},
		{"ns-1", "0 0 34 16", "#net-TWITTER #net-LINKEDIN"},
		{"ns-2", "0 0 52 16", "#net-BLUESKY #net-LINKEDIN #net-TWITTER"},
	} {
		s := sets.Eq(i)
		require.Equal(t, want.id, s.AttrOr("id", ""))
		require.Equal(t, want.box, s.AttrOr("viewBox", s.AttrOr("viewbox", "")))
		var uses []string
		s.Find("use").Each(func(_ int, u *goquery.Selection) { uses = append(uses, u.AttrOr("href", "")) })
		require.Equal(t, want.uses, strings.Join(uses, " "))
	}
	marks := doc.Find(`svg[role="img"]`)
	require.Equal(t, 3, marks.Length(), "the month's entries with networks")
	for i, want := range []struct{ ref, width, title string }{{"#ns-0", "16", "X. Scheduled"}, {"#ns-1", "34", "X, LinkedIn. Draft"}, {"#ns-0", "16", "X. Scheduled"}} {
		m := marks.Eq(i)
		require.Equal(t, want.ref, m.Find("use").AttrOr("href", ""))
		require.Equal(t, want.width, m.AttrOr("width", ""))
		require.Equal(t, want.title, m.Find("title").Text())
	}
	// Without networks the status is still said, in words.
	require.Equal(t, "Draft", doc.Find(`[data-testid="calendar-entry"]`).Eq(3).Find(".visually-hidden").Text())
}
