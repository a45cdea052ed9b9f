package app

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DemoLive is what the living demo needs beyond the Service: the posts pipeline, the sandbox's
// failure injection, and a server answering at BaseURL with its sandbox and workers running (the
// connect flows and the publishing go through them for real).
type DemoLive struct {
	Posts DemoPosts
	// FailNext makes the sandbox's network n answer its next call with status and message.
	FailNext func(n Network, status int, message string) error
	// Wait bounds how long seeding waits for the workers to publish (default 2 minutes).
	Wait time.Duration
}

// DemoPosts is the part of the posts service the demo uses (app/publishing implements it).
type DemoPosts interface {
	CreatePost(ctx context.Context, p PostParams) (*Post, error)
	GetPost(ctx context.Context, id string) (*Post, error)
}

// DemoNetworks are the sandbox networks the demo team connects.
var DemoNetworks = []Network{Twitter, LinkedIn, Threads, Bluesky, Mastodon}

// DemoMastodonServer is the server the demo names for Mastodon, as a user would: the sandbox
// serves any server name from its twin (and Crier registers its app there again after a restart,
// when the twin has forgotten it).
const DemoMastodonServer = "mastodon.social"

// Demo sizes, which the seeding test checks.
const (
	DemoMemberEmail = "sam@crier.local"
	demoHTTPTimeout = 30 * time.Second
)

// SeedLivingDemo is SeedDemo, then fills the organization: sandbox accounts connected through the
// real connect flows, a media library, a webhook, a second member, a portal link and a month of
// posts published, failed, scheduled and in review by the real pipeline. What exists is reused;
// the accounts are connected again on every run, because the sandbox forgets its tokens when the
// process stops.
func (s *Service) SeedLivingDemo(ctx context.Context, live DemoLive) (*DemoSeed, error) {
	d, ctx, err := s.demoOwner(ctx)
	if err != nil {
		return nil, err
	}
	steps := []func(context.Context, *DemoSeed) error{s.demoAccounts, s.demoMedia, s.demoWebhook, s.demoMember, s.demoPortal}
	for _, step := range steps {
		if err := step(ctx, d); err != nil {
			return nil, fmt.Errorf("app: demo: %w", err)
		}
	}
	if err := s.demoPosts(ctx, d, live); err != nil {
		return nil, fmt.Errorf("app: demo: posts: %w", err)
	}
	key, err := s.CreateAPIKey(ctx, "demo")
	if err != nil {
		return nil, fmt.Errorf("app: demo: %w", err)
	}
	d.APIKey = key.Key
	return d, nil
}

func (s *Service) sandboxBase() string {
	return strings.TrimRight(cmp.Or(s.opts.SandboxURL, s.opts.BaseURL), "/") + "/sandbox"
}

// demoAccounts connects each demo network as a user would: the connect URL, the sandbox's consent
// approved, Crier's callback completing it (a reconnect keeps the account's id).
func (s *Service) demoAccounts(ctx context.Context, d *DemoSeed) error {
	client := &http.Client{Timeout: demoHTTPTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, n := range DemoNetworks {
		if n == Bluesky {
			if err := s.demoPasswordConnect(ctx, d, n); err != nil {
				return err
			}
			continue
		}
		p := ConnectParams{Type: n, TeamID: d.TeamID, RedirectURL: s.opts.BaseURL + "/"}
		if s.Network(n).NeedsServer {
			p.ServerURL = DemoMastodonServer
		}
		authURL, err := s.ConnectSocialAccount(ctx, p)
		if err != nil {
			return fmt.Errorf("connect %s: %w", n, err)
		}
		res, err := client.Get(authURL + "&approve=1")
		if err != nil {
			return fmt.Errorf("connect %s: the sandbox's consent: %w", n, err)
		}
		res.Body.Close()
		back, err := url.Parse(res.Header.Get("Location"))
		if err != nil || res.StatusCode != http.StatusFound {
			return fmt.Errorf("connect %s: the sandbox's consent answered %s", n, res.Status)
		}
		r := s.CompleteConnect(ctx, n, back.Query())
		if r.Err != nil {
			return fmt.Errorf("connect %s: %w", n, r.Err)
		}
		if err := s.demoChannel(ctx, d, r.Account); err != nil {
			return fmt.Errorf("connect %s: %w", n, err)
		}
	}
	return nil
}

// demoChannel chooses the first channel of an account that publishes to a chosen one (LinkedIn's
// page), as the user would on the accounts page, so the account is ready; a choice is kept (a
// reconnect keeps it too).
func (s *Service) demoChannel(ctx context.Context, d *DemoSeed, a *SocialAccount) error {
	if a == nil || a.ProviderPageID != nil || len(a.Channels) == 0 || s.Network(a.Type).Channels != ChannelsSelect {
		return nil
	}
	_, err := s.SetChannel(ctx, d.TeamID, a.Type, a.Channels[0].ID)
	return err
}

// demoPasswordConnect signs in with an app password, as /connect/bluesky does (the sandbox
// accepts any identifier with a password).
func (s *Service) demoPasswordConnect(ctx context.Context, d *DemoSeed, n Network) error {
	authURL, err := s.ConnectSocialAccount(ctx, ConnectParams{Type: n, TeamID: d.TeamID, RedirectURL: s.opts.BaseURL + "/"})
	if err != nil {
		return fmt.Errorf("connect %s: %w", n, err)
	}
	u, err := url.Parse(authURL)
	if err != nil {
		return fmt.Errorf("connect %s: %w", n, err)
	}
	r := s.CompletePasswordConnect(ctx, n, u.Query().Get("state"), "crier-demo", "demo-demo-demo-demo")
	if r.Err != nil {
		return fmt.Errorf("connect %s: %w", n, r.Err)
	}
	return nil
}

// demoWebhook subscribes the sandbox's root, which answers every request, to the post and account
// events: deliveries are recorded as they happen.
func (s *Service) demoWebhook(ctx context.Context, d *DemoSeed) error {
	_, total, err := s.ListWebhooks(ctx, Page{Limit: 1})
	if err != nil || total > 0 {
		return err
	}
	target := s.sandboxBase() + "/"
	events := []string{EventPostPublished, EventSocialAccountCreated, EventSocialAccountUpdated}
	_, err = s.CreateWebhook(ctx, WebhookParams{URL: &target, Events: &events})
	return err
}

// demoMember invites a second member and accepts with the mailed link.
func (s *Service) demoMember(ctx context.Context, d *DemoSeed) error {
	_, total, err := s.ListMembers(ctx, Page{Limit: 1})
	if err != nil || total > 1 {
		return err
	}
	if _, err := s.CreateInvitation(ctx, DemoMemberEmail, RoleMember); err != nil {
		return err
	}
	token, err := s.demoMailToken(ctx, DemoMemberEmail, MailInvitation)
	if err != nil {
		return err
	}
	pw, name := DemoPassword, "Sam"
	_, err = s.AcceptInvitation(ctx, AcceptInvitationParams{Token: token, Password: &pw, FirstName: &name})
	return err
}

// demoPortal makes a portal link for a client to connect their own accounts.
func (s *Service) demoPortal(ctx context.Context, d *DemoSeed) error {
	links, err := s.ListPortalLinks(ctx, d.TeamID)
	if err != nil || len(links) > 0 {
		return err
	}
	_, err = s.CreatePortalLink(ctx, PortalLinkParams{TeamID: d.TeamID, Types: DemoNetworks,
		RedirectURL: s.opts.BaseURL + "/", UserName: "Northwind Coffee"})
	return err
}
