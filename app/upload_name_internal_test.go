package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUploadNames(t *testing.T) {
	for in, want := range map[string]string{
		`C:\fakepath\Team photo.JPG`: "Team photo.JPG",
		"dir/sub/report.pdf":         "report.pdf",
		"  spaced.png \t":            "spaced.png",
		"bell\x07\x00.gif":           "bell.gif",
		"bad\xffutf8.png":            "badutf8.png",
		"":                           "",
	} {
		got, err := uploadName(in, "file")
		require.NoError(t, err)
		require.Equal(t, want, got, in)
	}
	_, err := uploadName(strings.Repeat("ü", MaxUploadName), "fileName")
	require.NoError(t, err)
	_, err = uploadName(strings.Repeat("ü", MaxUploadName+1), "fileName")
	require.Equal(t, EInvalid, ErrorCode(err))
	require.Equal(t, []any{"fileName"}, ErrorIssues(err)[0].Path)

	for in, want := range map[string]string{
		"https://cdn.example.com/a/b/Spring%20hero.jpg?sig=1": "Spring hero.jpg",
		"https://example.com/":                                "",
		"https://example.com":                                 "",
		"https://example.com/media/":                          "media",
		"https://example.com/" + strings.Repeat("x", 300):     strings.Repeat("x", MaxUploadName),
	} {
		require.Equal(t, want, nameFromURL(in), in)
	}
}
