package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/x"
)

// A post's title has a maximum in the service, not only in the API's contract check: the
// dashboard's saves are bounded too (a 1 MB title was accepted before).
func TestPostTitleLimitInTheService(t *testing.T) {
	t.Parallel()
	b := setupMedia(t)
	team := b.postsTeam(t)
	d := app.PostData{}
	d.Set(app.Twitter, &x.Payload{Text: "Hello"})
	status, at := app.PostDraft, time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	create := func(title string) error {
		_, err := b.pub.CreatePost(b.ctx(t), app.PostParams{TeamID: team.ID, Title: &title, Status: &status, PostDate: &at,
			SocialAccountTypes: []app.Network{app.Twitter}, Data: &d})
		return err
	}
	require.NoError(t, create(strings.Repeat("é", app.MaxPostTitle)))
	err := create(strings.Repeat("é", app.MaxPostTitle+1))
	require.Equal(t, app.EInvalid, app.ErrorCode(err))
	var issue *app.Issue
	for _, is := range app.ErrorIssues(err) {
		if len(is.Path) == 1 && is.Path[0] == "title" {
			issue = &is
		}
	}
	require.NotNil(t, issue, "%v", err)
	require.Equal(t, app.IssueTooBig, issue.Code)
}
