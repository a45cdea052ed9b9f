package app

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Page is offset/limit paging; zero Limit means the default.
type Page struct {
	Offset int
	Limit  int
}

// MaxPageLimit caps every list.
const MaxPageLimit = 100

// PageOf builds a Page from optional query values and the operation's default limit.
func PageOf(offset, limit *int, defaultLimit int) Page {
	p := Page{Limit: defaultLimit}
	if offset != nil {
		p.Offset = *offset
	}
	if limit != nil {
		p.Limit = *limit
	}
	return p
}

func (p Page) Validate() error {
	var issues []Issue
	if p.Offset < 0 {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: "Number must be greater than or equal to 0", Path: []any{"offset"}})
	}
	if p.Limit < 1 {
		issues = append(issues, Issue{Code: IssueTooSmall, Message: "Number must be greater than or equal to 1", Path: []any{"limit"}})
	}
	if p.Limit > MaxPageLimit {
		issues = append(issues, Issue{Code: IssueTooBig, Message: fmt.Sprintf("Number must be less than or equal to %d", MaxPageLimit), Path: []any{"limit"}})
	}
	if len(issues) > 0 {
		return Invalid("Validation failed: "+fmt.Sprint(issues[0].Path[0])+": "+issues[0].Message, issues...)
	}
	return nil
}

func checkLength(field, v string, min, max int) error {
	n := len([]rune(v))
	switch {
	case n < min:
		return Invalid(fmt.Sprintf("Validation failed: %s: String must contain at least %d character(s)", field, min),
			StringMin(min, field))
	case n > max:
		return Invalid(fmt.Sprintf("Validation failed: %s: String must contain at most %d character(s)", field, max),
			StringMax(max, field))
	}
	return nil
}

// NotFoundOr turns "no row" (and ids that cannot be ids) into a 404 of what, wrapping anything else.
func NotFoundOr(err error, what, op string) error {
	var pgErr *pgconn.PgError
	if errors.Is(err, pgx.ErrNoRows) || (errors.As(err, &pgErr) && pgErr.Code == "22P02") { // 22P02: not a uuid
		return NotFound(what)
	}
	return fmt.Errorf("%s: %w", op, err)
}
