package app

// Post rules: what a post must satisfy beyond its schema. CheckPostRules is pure (no database): the
// posts service loads the team's accounts and the organization's uploads named by the payloads, calls
// it, and answers its issues as a 400. Here is the flow across networks (targets, accounts, postDate,
// firstComment); each network's own rules are its spec's Check (network/<name>/rules.go), written
// with the toolkit of post_check.go.
//
// Where each rule lives:
//   - The contract's schema (api/openapi.json, validated by kin-openapi before the service runs):
//     types, enums, required keys, unknown keys, and the fixed bounds of the spec's payload table —
//     poll options 2–4 of 1–25 chars and 5–10080 minutes, thread ≤ 25 items of ≤ 25,000 chars, alt
//     text ≤ 1,000, Instagram tag coordinates 0–1, sponsors ≤ 2 of 1–30 chars, volumes 0–100, Bluesky
//     tags ≤ 8 / quoteUri at:// ≤ 512 / thumbnail ≤ 2,048 / videoAlt ≤ 10,000, YouTube language fields
//     ≤ 35, Pinterest title ≤ 100 / description ≤ 800 / ≤ 5 uploads, TikTok photoCoverIndex ≥ 0,
//     socialAccountTypes ≥ 1 item, firstComment's per-network maximum lengths.
//   - Here: what depends on other fields, on the team's accounts, on the uploads or on the clock:
//     socialAccountTypes ⇄ data; a connected account per network (and not awaiting reconnection, a
//     selected page/channel where the network needs one); Discord/Slack channelId and Pinterest
//     boardName among the account's channels, Reddit sr (a name; the subreddit's media rules when the
//     account lists it); uploads found in the organization and
//     suiting the network (kind, format, count, size, duration, dimensions, aspect ratio); text
//     limits as each network counts them (X weighted length, Bluesky graphemes, YouTube description
//     bytes, Threads emoji bytes, Mastodon URLs); something to publish per network; cross-field rules
//     (X poll without media, Threads poll/link/GIF, Instagram REEL/STORY media, Google Business
//     EVENT/OFFER/call to action, TikTok photo cover, Facebook native schedule time …); postDate not in
//     the past; firstComment only for networks of data.
//
// Per status: a DRAFT may be incomplete but not wrong. Rules that say something is missing (no
// text or media, a required video, a Reddit title or subreddit, an event's title and dates, a call to
// action URL, the selected page) and rules that only matter when publishing (an account awaiting
// reconnection, postDate in the past, Facebook's native schedule window) apply to SCHEDULED and REVIEW
// only. Rules that say something present is wrong (too long, too many, wrong kind, upload not found,
// unknown board or channel) and a network without a connected account apply to every status.
//
// Limits (in the networks' rules) come from ../shared/networks.md (section numbers in the comments, "§n") and the spec's Limits
// table, which wins where they differ (Pinterest images JPEG/PNG). Sizes in MB are MiB (1 << 20 bytes);
// when an upload's duration or dimensions are unknown (nil) those checks are skipped.

import (
	"fmt"
	"strings"
	"time"
)

// PostRuleInput is everything CheckPostRules looks at.
type PostRuleInput struct {
	Data               *PostData
	SocialAccountTypes []Network
	Status             string // DRAFT | SCHEDULED | REVIEW (any other value is checked as a DRAFT)
	PostDate, Now      time.Time
	Accounts           map[Network]*SocialAccount // the team's live accounts (absent: not connected)
	Uploads            map[string]*Upload         // uploads of the organization named by the payloads (absent: not found)
	FirstComment       map[Network]string
}

// PostDateGrace is how far in the past a SCHEDULED or REVIEW postDate may be (clock skew, "publish now").
const PostDateGrace = time.Minute

// CheckPostRules answers the issues of a post beyond its schema (nil when none).
func CheckPostRules(in PostRuleInput) []Issue {
	c := &PostCheck{in: in, publishing: in.Status == "SCHEDULED" || in.Status == "REVIEW"}
	c.targets()
	c.postDate()
	for _, n := range in.Data.Networks() {
		if s := SpecOf(n); s != nil && s.Check != nil {
			s.Check(c, []any{"data", string(n)}, in.Data.Of(n))
		}
	}
	c.firstComment()
	return c.issues
}

// targets: socialAccountTypes and data name the same networks, each with a connected account.
func (c *PostCheck) targets() {
	listed := map[Network]bool{}
	for i, n := range c.in.SocialAccountTypes {
		if !n.Valid() {
			continue // the schema's enum
		}
		if listed[n] {
			c.Add(IssueCustom, n.DisplayName()+" is listed twice", "socialAccountTypes", i)
			continue
		}
		listed[n] = true
		if c.in.Data.Of(n) == nil {
			c.Add(IssueCustom, fmt.Sprintf("%s is chosen but data has no %s settings (data.%s)", n.DisplayName(), n.DisplayName(), n), "data", string(n))
		}
		a := c.in.Accounts[n]
		switch {
		case a == nil:
			c.Add(IssueCustom, fmt.Sprintf("No %s account is connected to this team; connect one or remove %s from the post", n.DisplayName(), n.DisplayName()), "socialAccountTypes", i)
		case c.publishing && a.ReconnectRequiredAt != nil:
			c.Add(IssueCustom, fmt.Sprintf("The %s account needs to be reconnected before this post can be scheduled; reconnect it or save the post as a draft", n.DisplayName()), "socialAccountTypes", i)
		case c.publishing && channelNeeded(n, a) != "" && (a.ProviderPageID == nil || *a.ProviderPageID == ""):
			c.Add(IssueCustom, fmt.Sprintf("Choose %s for the %s account before scheduling (account settings, channel)", channelNeeded(n, a), n.DisplayName()), "socialAccountTypes", i)
		}
	}
	for _, n := range c.in.Data.Networks() {
		if !listed[n] {
			c.Add(IssueCustom, fmt.Sprintf("data has %s settings but %s is not in socialAccountTypes; add it or remove data.%s", n.DisplayName(), n.DisplayName(), n), "data", string(n))
		}
	}
}

// channelNeeded is what the account on n must have selected before publishing ("" when nothing).
func channelNeeded(n Network, a *SocialAccount) string {
	if s := SpecOf(n); s != nil && s.ChannelNeeded != nil {
		return s.ChannelNeeded(a)
	}
	return ""
}

func (c *PostCheck) postDate() {
	if !c.publishing {
		return
	}
	if c.in.PostDate.IsZero() {
		c.Add(IssueInvalidType, "Choose when to publish: a scheduled post needs a postDate", "postDate")
		return
	}
	if c.in.PostDate.Before(c.in.Now.Add(-PostDateGrace)) {
		c.Add(IssueTooSmall, fmt.Sprintf("The publish time %s is in the past; choose a time from now on", c.in.PostDate.UTC().Format("2006-01-02 15:04 UTC")), "postDate")
	}
}

func (c *PostCheck) firstComment() {
	for _, n := range Networks {
		text, ok := c.in.FirstComment[n]
		if !ok || strings.TrimSpace(text) == "" {
			continue
		}
		path := []any{"firstComment", string(n)}
		p := c.in.Data.Of(n)
		switch {
		case p == nil:
			c.Add(IssueCustom, fmt.Sprintf("A first comment for %s needs %s among the post's networks", n.DisplayName(), n.DisplayName()), path...)
		case isStory(p):
			c.Add(IssueCustom, fmt.Sprintf("%s stories cannot be commented on: remove the first comment or post to the feed", n.DisplayName()), path...)
		}
	}
}

func isStory(p Payload) bool {
	s, ok := p.(Story)
	return ok && s.IsStory()
}

// RuleUploadIDs lists every upload the payloads name (media, carousel items, X thread posts), once
// each: the uploads the caller loads into PostRuleInput.Uploads.
func RuleUploadIDs(d *PostData) []string {
	var out []string
	seen := map[string]bool{}
	add := func(ids []string) {
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	for _, n := range d.Networks() {
		p := d.Of(n)
		add(p.Uploads())
		if more, ok := p.(UploadNamer); ok {
			add(more.NamedUploads())
		}
	}
	return out
}
