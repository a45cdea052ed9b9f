package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/crier/crier/store"
)

// demoPost is one post of the demo's month: days from today (negative: published, by the real
// pipeline now, then dated back), the networks, the text and which library files it shows.
type demoPost struct {
	days     int
	hour     int
	networks []Network
	title    string
	text     string
	media    []int // indexes into the library, oldest first; the video is the last
	status   PostStatus
}

// The demo's month, and its failure: X refuses a duplicate, as it does for real.
var (
	demoFailed = demoPost{networks: []Network{Twitter}, title: "Flash sale reminder",
		text: "Flash sale: 20% off everything until midnight!"}
	demoFailure = "You are not allowed to create a Tweet with duplicate content."
	demoMonth   = []demoPost{
		{days: -26, hour: 9, networks: []Network{Twitter, LinkedIn}, title: "Spring menu", text: "Our spring menu is here: rhubarb tart, cold brew tonic and a new oat flat white.", media: []int{0}},
		{days: -23, hour: 14, networks: []Network{Threads}, title: "Behind the counter", text: "Meet Lee, who has roasted every bean we sold this year.", media: []int{1}},
		{days: -19, hour: 10, networks: []Network{Bluesky, LinkedIn, Mastodon}, title: "Opening hours", text: "From Monday we open at 7:00 on weekdays. See you early!"},
		{days: -16, hour: 16, networks: []Network{Twitter, Threads}, title: "Latte art", text: "Thirty seconds of latte art, slowed down.", media: []int{5}},
		{days: -12, hour: 11, networks: []Network{LinkedIn}, title: "Local farms", text: "Every pastry uses milk and butter from two farms within 40 km.", media: []int{2}},
		{days: -8, hour: 9, networks: []Network{Twitter, Bluesky}, title: "Loyalty card", text: "The tenth coffee is on us — ask for a card at the till."},
		{days: -5, hour: 15, networks: []Network{Threads, LinkedIn, Mastodon}, title: "Rainy day", text: "Rainy day, warm window seats. Come in and dry off.", media: []int{3}},
		{days: -2, hour: 12, networks: []Network{Twitter, LinkedIn, Bluesky}, title: "Weekend brunch", text: "Brunch is back on Saturdays, 9 to 14. Pancakes included.", media: []int{4}},
	}
	demoUpcoming = []demoPost{
		{days: 1, hour: 9, networks: []Network{Twitter, LinkedIn}, title: "Tasting evening", text: "Thursday 18:00: a free tasting of our three new single origins."},
		{days: 3, hour: 11, networks: []Network{Threads, Bluesky}, title: "New mugs", text: "Hand-thrown mugs from a potter down the street, now on the shelf.", media: []int{0}},
		{days: 4, hour: 10, networks: []Network{Twitter, Threads, LinkedIn}, title: "Summer hiring", text: "We are hiring two baristas for the summer. Apply in store.", status: PostReview},
		{days: 6, hour: 15, networks: []Network{LinkedIn}, title: "Playlist", text: "What we play on Sunday mornings: our playlist, track by track.", media: []int{1}},
		{days: 9, hour: 9, networks: []Network{Twitter, Bluesky, Mastodon}, title: "Cold brew season", text: "Cold brew season starts now. Bring your own bottle, get 10% off."},
		{days: 13, hour: 12, networks: []Network{Threads}, title: "Pastry of the week", text: "Pastry of the week: cardamom bun, baked at 6 every morning.", media: []int{2}},
		{days: 17, hour: 16, networks: []Network{Twitter, LinkedIn}, title: "Open mic", text: "Open mic night on Friday the 20th. Sign up at the counter.", media: []int{4}},
		{days: 24, hour: 10, networks: []Network{Twitter, Threads, Bluesky, LinkedIn, Mastodon}, title: "One year", text: "One year on this corner. Thank you — cake for everyone on Sunday.", media: []int{3}},
	}
)

// demoPosts publishes the month's past posts and the failed one through the pipeline (they are due
// at once; once POSTED they are dated back on the calendar, keeping the permalinks the sandbox gave)
// and schedules the upcoming ones. A team that has posts is left as it is.
func (s *Service) demoPosts(ctx context.Context, d *DemoSeed, live DemoLive) error {
	if n, err := s.q.DemoCountTeamPosts(ctx, d.TeamID); err != nil || n > 0 {
		return err
	}
	if live.Posts == nil || live.FailNext == nil {
		return fmt.Errorf("the living demo needs the posts service and the sandbox")
	}
	wait := live.Wait
	if wait == 0 {
		wait = 2 * time.Minute
	}
	library, err := s.ListUploads(ctx, UploadFilter{TeamID: &d.TeamID}, Page{Limit: 50})
	if err != nil {
		return err
	}
	// The library lists newest first; the demo's indexes count from the first upload.
	ids := make([]string, len(library))
	for i, u := range library {
		ids[len(library)-1-i] = u.ID
	}
	now := s.now().UTC()
	create := func(p demoPost, at time.Time) (*Post, error) {
		return s.demoCreatePost(ctx, live.Posts, d.TeamID, p, at, ids)
	}

	if err := live.FailNext(Twitter, 403, demoFailure); err != nil {
		return err
	}
	failed, err := create(demoFailed, now.Add(time.Second))
	if err != nil {
		return err
	}
	if _, err := demoAwait(ctx, live.Posts, failed.ID, wait, PostError); err != nil {
		return err
	}

	var published []string
	for _, p := range demoMonth {
		post, err := create(p, now.Add(time.Second))
		if err != nil {
			return err
		}
		published = append(published, post.ID)
	}
	for i, id := range published {
		if _, err := demoAwait(ctx, live.Posts, id, wait, PostPosted); err != nil {
			return err
		}
		at := demoDay(now, demoMonth[i])
		if err := s.q.DemoBackdatePost(ctx, store.DemoBackdatePostParams{ID: id, At: at}); err != nil {
			return err
		}
	}
	for _, p := range demoUpcoming {
		if _, err := create(p, demoDay(now, p)); err != nil {
			return err
		}
	}
	return nil
}

func demoDay(now time.Time, p demoPost) time.Time {
	y, m, day := now.Date()
	return time.Date(y, m, day+p.days, p.hour, 0, 0, 0, time.UTC)
}

func (s *Service) demoCreatePost(ctx context.Context, posts DemoPosts, teamID string, p demoPost, at time.Time, library []string) (*Post, error) {
	var uploads []string
	for _, i := range p.media {
		if i < len(library) {
			uploads = append(uploads, library[i])
		}
	}
	raw := map[Network]map[string]any{}
	for _, n := range p.networks {
		payload := map[string]any{"text": p.text}
		if len(uploads) > 0 {
			payload["uploadIds"] = uploads
		}
		raw[n] = payload
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var data PostData
	if err := json.Unmarshal(b, &data); err != nil {
		return nil, err
	}
	status := PostScheduled
	if p.status != "" {
		status = p.status
	}
	date := at.Format(time.RFC3339)
	title := p.title
	post, err := posts.CreatePost(ctx, PostParams{TeamID: teamID, Title: &title, PostDate: &date, Status: &status,
		SocialAccountTypes: p.networks, Data: &data})
	if err != nil {
		return nil, fmt.Errorf("%q: %w", p.title, err)
	}
	return post, nil
}

// demoAwait polls a post until it reaches want; another final status is an error.
func demoAwait(ctx context.Context, posts DemoPosts, id string, wait time.Duration, want PostStatus) (*Post, error) {
	deadline := time.Now().Add(wait)
	for {
		p, err := posts.GetPost(ctx, id)
		if err != nil {
			return nil, err
		}
		switch {
		case p.Status == want:
			return p, nil
		case p.Status == PostPosted || p.Status == PostError:
			msg := ""
			if p.Error != nil {
				msg = *p.Error
			}
			return nil, fmt.Errorf("%q ended %s, not %s: %s", p.Title, p.Status, want, msg)
		case time.Now().After(deadline):
			return nil, fmt.Errorf("%q still %s after %s (are the workers running?)", p.Title, p.Status, wait)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
