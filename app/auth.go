package app

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/crier/crier/store"
)

// User is the signed-in user of the dashboard (the spec's User record).
type User struct {
	ID              string
	Email           string
	FirstName       *string
	LastName        *string
	AvatarURL       *string
	Timezone        *string
	EmailVerifiedAt *time.Time
	OnboardedAt     *time.Time
	CreatedAt       time.Time
}

// Membership is a user's role in one organization.
type Membership struct {
	ID               string
	OrganizationID   string
	OrganizationName string
	Role             Role
}

// Session is who is signed in, where (the spec's Session record). Generation goes into the cookie.
type Session struct {
	User                  User
	Memberships           []Membership
	CurrentOrganizationID *string
	Generation            int
}

// SignupParams is the body of POST /auth/signup.
type SignupParams struct {
	Email            string
	Password         string
	FirstName        string
	LastName         *string
	OrganizationName *string
}

// Signup creates the user, an organization (named after the user unless given), the OWNER
// membership on the FREE plan and the verification email (one transaction), and answers the new
// session.
func (s *Service) Signup(ctx context.Context, p SignupParams) (*Session, error) {
	p.Email = strings.TrimSpace(p.Email)
	p.FirstName = strings.TrimSpace(p.FirstName)
	var issues []Issue
	if _, err := mail.ParseAddress(p.Email); err != nil || strings.ContainsAny(p.Email, " <>") {
		issues = append(issues, InvalidString("email", "email"))
	}
	if len([]rune(p.Password)) < MinPasswordLength {
		issues = append(issues, StringMin(MinPasswordLength, "password"))
	}
	if p.FirstName == "" {
		issues = append(issues, StringMin(1, "firstName"))
	}
	issues = checkMax(issues, &p.FirstName, MaxPersonName, "firstName")
	issues = checkMax(issues, p.LastName, MaxPersonName, "lastName")
	issues = checkMax(issues, p.OrganizationName, MaxOrganizationName, "organizationName")
	orgName := defaultOrganizationName(p.FirstName)
	if p.OrganizationName != nil && strings.TrimSpace(*p.OrganizationName) != "" {
		orgName = strings.TrimSpace(*p.OrganizationName)
	}
	if len(issues) > 0 {
		return nil, Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	hash, err := hashPassword(p.Password)
	if err != nil {
		return nil, fmt.Errorf("app: signup: %w", err)
	}
	var userID string
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		u, err := q.CreateUser(ctx, store.CreateUserParams{Email: p.Email, PasswordHash: hash, FirstName: &p.FirstName, LastName: p.LastName})
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return Invalid("Validation failed: email: This email is already registered",
				Issue{Code: IssueCustom, Message: "This email is already registered", Path: []any{"email"}})
		}
		if err != nil {
			return fmt.Errorf("app: signup: create user: %w", err)
		}
		org, err := q.CreateOrganization(ctx, store.CreateOrganizationParams{CreatedByID: u.ID, Name: orgName})
		if err != nil {
			return fmt.Errorf("app: signup: create organization: %w", err)
		}
		if _, err := q.CreateMembership(ctx, store.CreateMembershipParams{OrganizationID: org.ID, UserID: u.ID, Role: string(RoleOwner)}); err != nil {
			return fmt.Errorf("app: signup: create membership: %w", err)
		}
		userID = u.ID
		if err := s.sendVerification(ctx, tx, u.ID, u.Email, u.FirstName); err != nil {
			return err
		}
		return s.Audit(ctx, tx, AuditItem{OrganizationID: org.ID, ActorType: "USER", ActorID: u.ID, ActorName: p.Email,
			Action: "user.signed_up", TargetType: "user", TargetID: u.ID})
	})
	if err != nil {
		return nil, err
	}
	return s.sessionFor(ctx, userID, "")
}

// login checks the credentials; the message is the same whether or not the email is known.
func (s *Service) login(ctx context.Context, email, password string) (*Session, error) {
	u, err := s.q.GetUserByEmail(ctx, strings.TrimSpace(email))
	if errors.Is(err, pgx.ErrNoRows) {
		checkPassword(dummyHash, password)
		return nil, Errorf(EUnauthorized, "Invalid email or password")
	}
	if err != nil {
		return nil, fmt.Errorf("app: login: %w", err)
	}
	if !checkPassword(u.PasswordHash, password) {
		return nil, Errorf(EUnauthorized, "Invalid email or password")
	}
	return s.sessionFor(ctx, u.ID, "")
}

// CurrentSession answers GET /auth/me for the caller.
func (s *Service) CurrentSession(ctx context.Context) (*Session, error) {
	p := PrincipalFrom(ctx)
	if p == nil {
		return nil, Errorf(EUnauthorized, "Authentication required")
	}
	return s.sessionFor(ctx, p.UserID, p.OrganizationID)
}

// AuthenticateSession resolves a dashboard session cookie. A session of an older generation (the
// password changed since) or of a user who left every organization is refused. If the session's
// organization is gone, the user's first remaining membership is used.
func (s *Service) AuthenticateSession(ctx context.Context, userID, orgID string, generation int) (*Principal, error) {
	u, err := s.q.GetUser(ctx, userID)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && int(u.SessionGeneration) != generation) {
		return nil, Errorf(EUnauthorized, "Your session has ended; sign in again")
	}
	if err != nil {
		return nil, fmt.Errorf("app: authenticate session: %w", err)
	}
	ms, err := s.q.ListUserMemberships(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("app: authenticate session: %w", err)
	}
	if len(ms) == 0 {
		return nil, Errorf(EUnauthorized, "You are not a member of any organization")
	}
	m := ms[0]
	for _, c := range ms {
		if c.OrganizationID == orgID {
			m = c
		}
	}
	return &Principal{UserID: userID, OrganizationID: m.OrganizationID, MembershipID: m.ID, Role: Role(m.Role), ActorName: u.Email}, nil
}

// sessionFor builds the Session of userID, current in orgID when the user belongs to it.
func (s *Service) sessionFor(ctx context.Context, userID, orgID string) (*Session, error) {
	u, err := s.q.GetUser(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("app: session: %w", err)
	}
	ms, err := s.q.ListUserMemberships(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("app: session: %w", err)
	}
	sess := &Session{User: userFromRow(u), Generation: int(u.SessionGeneration), Memberships: make([]Membership, 0, len(ms))}
	for _, m := range ms {
		sess.Memberships = append(sess.Memberships, Membership{ID: m.ID, OrganizationID: m.OrganizationID, OrganizationName: m.OrganizationName, Role: Role(m.Role)})
		if sess.CurrentOrganizationID == nil || m.OrganizationID == orgID {
			id := m.OrganizationID
			sess.CurrentOrganizationID = &id
		}
	}
	return sess, nil
}

func userFromRow(u store.User) User {
	return User{ID: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName, AvatarURL: u.AvatarUrl,
		Timezone: u.Timezone, EmailVerifiedAt: u.EmailVerifiedAt, OnboardedAt: u.OnboardedAt, CreatedAt: u.CreatedAt}
}

// AuditItem is one line of an organization's audit log.
type AuditItem struct {
	OrganizationID string
	ActorType      string // USER | API_KEY | SYSTEM
	ActorID        string
	ActorName      string
	Action         string
	TargetType     string
	TargetID       string
	Metadata       map[string]any
}

// Audit writes item in tx, so the log holds exactly the changes that committed.
func (s *Service) Audit(ctx context.Context, tx pgx.Tx, item AuditItem) error {
	if err := s.q.WithTx(tx).InsertAuditItem(ctx, AuditRow(item)); err != nil {
		return fmt.Errorf("app: audit %s: %w", item.Action, err)
	}
	return nil
}

// AuditBy fills the actor of an item from the caller.
func AuditBy(p *Principal, item AuditItem) AuditItem {
	item.OrganizationID = p.OrganizationID
	item.ActorType, item.ActorID, item.ActorName = "USER", p.UserID, p.ActorName
	if p.APIKeyID != "" {
		item.ActorType, item.ActorID = "API_KEY", p.APIKeyID
	}
	return item
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
