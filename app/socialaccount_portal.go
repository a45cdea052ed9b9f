package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// The hosted portal: a link with an unguessable token (32 random bytes; only its SHA-256 is stored)
// lets someone without a Crier login connect and disconnect the allowed networks of one team, until
// it expires. Nothing else is reachable with it.

// portal link lifetimes (expiresIn, minutes).
const (
	DefaultPortalLinkMinutes = 24 * 60
	MinPortalLinkMinutes     = 5
	MaxPortalLinkMinutes     = 48 * 60
)

// PortalPath is where the portal page lives: BaseURL + PortalPath + token.
const PortalPath = "/portal/"

// PortalLinkParams is the body of POST /social-account/create-portal-link.
type PortalLinkParams struct {
	TeamID      string
	Types       []Network
	RedirectURL string
	ServerURL   string
	ExpiresIn   *int // minutes
	Options     ConnectOptions
	LogoURL     string
	UserName    string
	UserLogoURL string
	Display     PortalDisplay
	// MaxConnected caps how many of the allowed networks the visitor may connect (0: no cap).
	MaxConnected int
}

// PortalDisplay are a portal link's presentation switches (create-portal-link's body).
type PortalDisplay struct {
	GoBackButtonText          string `json:"goBackButtonText,omitempty"`
	HidePoweredBy             bool   `json:"hidePoweredBy,omitempty"`
	HideGoBackButton          bool   `json:"hideGoBackButton,omitempty"`
	HideUserLogo              bool   `json:"hideUserLogo,omitempty"`
	HideUserName              bool   `json:"hideUserName,omitempty"`
	HideLanguageSwitcher      bool   `json:"hideLanguageSwitcher,omitempty"`
	ShowModalOnConnectSuccess bool   `json:"showModalOnConnectSuccess,omitempty"`
	// Language is the page's language; only English pages exist so far (the choice is kept).
	Language string `json:"language,omitempty"`
}

type portalOptions struct {
	Connect      ConnectOptions `json:"connect"`
	LogoURL      string         `json:"logoUrl,omitempty"`
	UserName     string         `json:"userName,omitempty"`
	UserLogoURL  string         `json:"userLogoUrl,omitempty"`
	Display      PortalDisplay  `json:"display"`
	MaxConnected int            `json:"maxConnected,omitempty"`
}

// CreatePortalLink answers the URL of a new portal link.
func (s *Service) CreatePortalLink(ctx context.Context, p PortalLinkParams) (string, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActManageAccounts)
	if err != nil {
		return "", err
	}
	var issues []Issue
	if len(p.Types) == 0 {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: "Array must contain at least 1 element(s)", Path: []any{"socialAccountTypes"}})
	}
	minutes := DefaultPortalLinkMinutes
	if p.ExpiresIn != nil {
		minutes = *p.ExpiresIn
	}
	if minutes < MinPortalLinkMinutes || minutes > MaxPortalLinkMinutes {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: fmt.Sprintf("Number must be between %d and %d", MinPortalLinkMinutes, MaxPortalLinkMinutes), Path: []any{"expiresIn"}})
	}
	if p.RedirectURL != "" {
		issues = append(issues, ErrorIssues(validRedirectURL(p.RedirectURL, "redirectUrl"))...)
	}
	if p.MaxConnected < 0 {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: "Number must be greater than or equal to 0", Path: []any{"maxSocialAccountsConnected"}})
	}
	if len(issues) > 0 {
		return "", Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	if _, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: p.TeamID, OrganizationID: pr.OrganizationID}); err != nil {
		return "", NotFoundOr(err, "Team", "app: portal link")
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("app: portal link: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	types := make([]string, 0, len(p.Types))
	seen := map[Network]bool{}
	for _, n := range p.Types {
		if !seen[n] {
			seen[n] = true
			types = append(types, string(n))
		}
	}
	opts, _ := json.Marshal(portalOptions{Connect: p.Options, LogoURL: p.LogoURL, UserName: p.UserName, UserLogoURL: p.UserLogoURL,
		Display: p.Display, MaxConnected: p.MaxConnected})
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		link, err := s.q.WithTx(tx).InsertPortalLink(ctx, store.InsertPortalLinkParams{OrganizationID: pr.OrganizationID, TeamID: p.TeamID,
			TokenHash: portalHash(token), AllowedTypes: types, RedirectUrl: nonEmpty(p.RedirectURL), ServerUrl: nonEmpty(p.ServerURL),
			Options: opts, ExpiresAt: s.now().Add(time.Duration(minutes) * time.Minute).UTC()})
		if err != nil {
			return fmt.Errorf("app: portal link: %w", err)
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "social-account.portal-link-created", TargetType: "team", TargetID: p.TeamID,
			Metadata: map[string]any{"portalLinkId": link.ID, "types": types, "expiresAt": link.ExpiresAt}}))
	})
	if err != nil {
		return "", err
	}
	return strings.TrimRight(s.opts.BaseURL, "/") + PortalPath + token, nil
}

func portalHash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// PortalView is what the portal shows.
type PortalView struct {
	OrganizationName string
	BrandName        *string
	LogoURL          *string
	AccentColor      *string
	TeamName         string
	AllowedTypes     []Network
	Connected        []SocialAccount
	RedirectURL      *string
	ExpiresAt        time.Time
	// What the link's creator chose for the page (not part of the portal's JSON view).
	UserName, UserLogoURL string
	Display               PortalDisplay
	MaxConnected          int
}

// portalLink resolves a token; unknown and expired tokens are both 404.
func (s *Service) portalLink(ctx context.Context, token string) (store.PortalLink, error) {
	link, err := s.q.GetPortalLinkByHash(ctx, portalHash(token))
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return link, NotFound("Portal link")
		}
		return link, fmt.Errorf("app: portal: %w", err)
	}
	if !link.ExpiresAt.After(s.now()) {
		return link, &Error{Code: ENotFound, Message: "This portal link has expired; ask for a new one"}
	}
	return link, nil
}

// Portal answers the portal view of a token.
func (s *Service) portal(ctx context.Context, token string) (*PortalView, error) {
	link, err := s.portalLink(ctx, token)
	if err != nil {
		return nil, err
	}
	org, err := s.q.GetOrganization(ctx, link.OrganizationID)
	if err != nil {
		return nil, NotFoundOr(err, "Portal link", "app: portal")
	}
	team, err := s.q.GetTeam(ctx, store.GetTeamParams{ID: link.TeamID, OrganizationID: link.OrganizationID})
	if err != nil {
		return nil, NotFoundOr(err, "Portal link", "app: portal")
	}
	var opts portalOptions
	_ = json.Unmarshal(link.Options, &opts)
	v := &PortalView{OrganizationName: org.Name, BrandName: org.PortalBrandName, LogoURL: org.PortalLogoUrl, AccentColor: org.PortalAccentColor,
		TeamName: team.Name, RedirectURL: link.RedirectUrl, ExpiresAt: link.ExpiresAt}
	if opts.LogoURL != "" {
		v.LogoURL = &opts.LogoURL
	}
	v.UserName, v.UserLogoURL, v.Display, v.MaxConnected = opts.UserName, opts.UserLogoURL, opts.Display, opts.MaxConnected
	allowed := map[string]bool{}
	for _, t := range link.AllowedTypes {
		allowed[t] = true
		v.AllowedTypes = append(v.AllowedTypes, Network(t))
	}
	byTeam, err := s.teamSocialAccounts(ctx, link.OrganizationID, []string{link.TeamID})
	if err != nil {
		return nil, err
	}
	for _, a := range byTeam[link.TeamID] {
		if allowed[string(a.Type)] {
			v.Connected = append(v.Connected, a)
		}
	}
	return v, nil
}

func portalAllows(link store.PortalLink, n Network) error {
	for _, t := range link.AllowedTypes {
		if t == string(n) {
			return nil
		}
	}
	return Invalid("Validation failed: type: not offered by this portal link",
		Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value. Expected one of " + strings.Join(link.AllowedTypes, " | "), Path: []any{"type"}})
}

// portalConnect answers the network's consent URL for a portal visitor; the callback comes back
// to the portal page (or the link's redirectUrl) with the outcome.
func (s *Service) portalConnect(ctx context.Context, token string, n Network, serverURL string) (string, error) {
	link, err := s.portalLink(ctx, token)
	if err != nil {
		return "", err
	}
	if err := portalAllows(link, n); err != nil {
		return "", err
	}
	var opts portalOptions
	_ = json.Unmarshal(link.Options, &opts)
	if opts.MaxConnected > 0 {
		if err := s.portalUnderCap(ctx, link, n, opts.MaxConnected); err != nil {
			return "", err
		}
	}
	if serverURL == "" && link.ServerUrl != nil {
		serverURL = *link.ServerUrl
	}
	st := OAuthState{OrganizationID: link.OrganizationID, TeamID: link.TeamID, Network: n, PortalToken: token,
		RedirectURL: strings.TrimRight(s.opts.BaseURL, "/") + PortalPath + token, ServerURL: serverURL, Options: opts.Connect}
	return s.connectURL(ctx, st)
}

// portalDisconnect disconnects one of the allowed networks of the portal's team.
func (s *Service) portalDisconnect(ctx context.Context, token string, n Network) error {
	link, err := s.portalLink(ctx, token)
	if err != nil {
		return err
	}
	if err := portalAllows(link, n); err != nil {
		return err
	}
	_, err = s.disconnect(ctx, link.OrganizationID, link.TeamID, n, func(item AuditItem) AuditItem {
		item.OrganizationID, item.ActorType, item.ActorName = link.OrganizationID, "SYSTEM", "portal"
		return item
	})
	return err
}

// portalUnderCap refuses connecting one more network when the link's cap is reached (reconnecting
// a network already connected is always allowed).
func (s *Service) portalUnderCap(ctx context.Context, link store.PortalLink, n Network, max int) error {
	byTeam, err := s.teamSocialAccounts(ctx, link.OrganizationID, []string{link.TeamID})
	if err != nil {
		return err
	}
	connected := 0
	for _, a := range byTeam[link.TeamID] {
		if a.Type == n {
			return nil
		}
		if slices.Contains(link.AllowedTypes, string(a.Type)) {
			connected++
		}
	}
	if connected >= max {
		return Errorf(EForbidden, "This link allows %d connected account(s); disconnect one to connect %s", max, n.DisplayName())
	}
	return nil
}
