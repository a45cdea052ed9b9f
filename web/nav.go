package web

import "github.com/crier/crier/views/layout"

// area is a part of the dashboard with its own page. Until an area's capability lands it renders
// the "coming in a later release" page from Summary and Plans; the route name is the ID.
type area struct {
	Built   bool // its pages are registered by its own file; no "coming later" page
	ID      string
	Label   string
	Path    string
	Icon    string
	Summary string
	Plans   []string
}

// Area IDs: route names, nav test ids (data-testid="nav-<ID>") and the active-item key.
const (
	areaHome        = "home"
	areaTeams       = "teams"
	areaComposer    = "composer"
	areaCalendar    = "calendar"
	areaPosts       = "posts"
	areaInbox       = "inbox"
	areaAutomations = "automations"
	areaBio         = "bio"
	areaMedia       = "media"
	areaWebhooks    = "webhooks"
	areaBilling     = "billing"
	areaSettings    = "settings"
	areaDocs        = "docs"
)

// areas are the dashboard areas, built or not, in sidebar order within their groups. Only the built
// ones have a sidebar entry (navigation).
var areas = []area{
	{
		Built: true, ID: areaTeams, Label: "Teams", Path: "/teams", Icon: "teams",
		Summary: "Teams group the social accounts you manage: one team per brand or client, with at most one account per network.",
		Plans: []string{
			"Create a team for each brand or client and connect its accounts on any of the 15 networks.",
			"Send a client a branded connection link, so they connect their own accounts without a Crier login.",
			"See whether each account is still connected, and reconnect it when a network revokes access.",
		},
	},
	{
		Built: true, ID: areaComposer, Label: "Composer", Path: "/composer", Icon: "composer",
		Summary: "Write a post once and tailor it for every network it goes to.",
		Plans: []string{
			"Write one post, then adjust its text, media and options for each network.",
			"Check every version against its network's limits before anything is sent.",
			"Publish at once, or schedule the post for a date and time in your timezone.",
		},
	},
	{
		Built: true, ID: areaCalendar, Label: "Calendar", Path: "/calendar", Icon: "calendar",
		Summary: "See everything that is scheduled and published, day by day.",
		Plans: []string{
			"Browse scheduled and published posts by week or month, in your timezone.",
			"Open a post to see its status on each network, with the network's own error when one failed.",
			"Move a scheduled post to a new date and time.",
		},
	},
	{
		Built: true, ID: areaPosts, Label: "Posts", Path: "/posts", Icon: "send",
		Summary: "Every post of a team, with its status on each network.",
		Plans: []string{
			"Filter posts by status, network, date and text.",
			"Follow a post live while it publishes, and retry the networks that failed.",
			"Approve or send back the posts waiting for review.",
		},
	},
	{
		ID: areaInbox, Label: "Inbox", Path: "/inbox", Icon: "inbox",
		Summary: "Answer the conversations your posts start, from one place.",
		Plans: []string{
			"Read and reply to the comments on your posts, across networks.",
			"Answer Instagram and Facebook direct messages.",
			"Reply to the reviews of your Google Business locations.",
		},
	},
	{
		ID: areaAutomations, Label: "Automations", Path: "/automations", Icon: "automations",
		Summary: "Let Crier answer comments and messages that match your rules.",
		Plans: []string{
			"Start a flow when a comment or a direct message contains the keywords you choose.",
			"Reply publicly, send a private reply or a direct message, or like the comment.",
			"Test a flow before you publish it, and pause it at any time.",
		},
	},
	{
		ID: areaBio, Label: "Bio pages", Path: "/bio", Icon: "bio",
		Summary: "Build a link-in-bio page for each team.",
		Plans: []string{
			"Publish a page with links, headers, text and social icons at an address you choose.",
			"Reorder items and switch them on or off at any time.",
			"See how many people view the page and click each link.",
		},
	},
	{
		Built: true, ID: areaMedia, Label: "Media", Path: "/media", Icon: "media",
		Summary: "Keep the images and videos you post in one library.",
		Plans: []string{
			"Upload images and videos from your computer, or import them from a URL.",
			"Attach an upload to as many posts, on as many networks, as you like.",
		},
	},
	{
		Built: true, ID: areaWebhooks, Label: "Webhooks", Path: "/webhooks", Icon: "webhooks",
		Summary: "Tell your own systems when something happens in Crier.",
		Plans: []string{
			"Send signed events, such as a post being published, to the URLs you choose.",
			"Inspect each delivery and its response, and send it again.",
			"Rotate a webhook's signing secret without missing an event.",
		},
	},
	{
		ID: areaBilling, Label: "Billing", Path: "/billing", Icon: "billing",
		Summary: "Manage your plan, your invoices and your usage credits.",
		Plans: []string{
			"Choose a plan and pay monthly or yearly.",
			"Download invoices and keep your billing details up to date.",
			"Follow the credit balance that pays for metered network actions.",
		},
	},
	{
		Built: true, ID: areaSettings, Label: "Settings", Path: "/settings", Icon: "settings",
		Summary: "Configure your organization, your profile and API access.",
		Plans: []string{
			"Rename your organization and invite its members.",
			"Create and revoke the API keys that authenticate the JSON API.",
			"Update your profile and your password.",
		},
	},
}

// areaByID finds an area; the table is small and fixed.
func areaByID(id string) area {
	for _, a := range areas {
		if a.ID == id {
			return a
		}
	}
	panic("web: unknown area " + id)
}

func navItem(a area) layout.NavItem {
	return layout.NavItem{ID: a.ID, Label: a.Label, Href: a.Path, Icon: a.Icon}
}

// navigation is the sidebar, grouped; the sandbox inspector is under Developers when sandbox.
// The sidebar shows only what works: an area not built yet has no entry (its address still answers
// the "coming in a later release" page), and a group left without entries is left out.
func navigation(sandbox bool) []layout.NavGroup {
	items := func(ids ...string) []layout.NavItem {
		out := make([]layout.NavItem, 0, len(ids))
		for _, id := range ids {
			if a := areaByID(id); a.Built {
				out = append(out, navItem(a))
			}
		}
		return out
	}
	developers := append(items(areaWebhooks), layout.NavItem{ID: areaDocs, Label: "API docs", Href: pathDocs, Icon: "docs"})
	if sandbox {
		developers = append(developers, sandboxNavItem)
	}
	groups := []layout.NavGroup{
		{Items: []layout.NavItem{{ID: areaHome, Label: "Home", Href: pathHome, Icon: "home"}}},
		{Label: "Publish", Items: items(areaComposer, areaCalendar, areaPosts, areaMedia)},
		{Label: "Engage", Items: items(areaInbox, areaAutomations, areaBio)},
		{Label: "Manage", Items: items(areaTeams, areaBilling, areaSettings)},
		{Label: "Developers", Items: developers},
	}
	out := groups[:0]
	for _, g := range groups {
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	return out
}
