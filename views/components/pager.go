package components

import (
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// Pager is offset paging as pages: "Showing 11–20 of 43 teams" with previous and next links,
// which htmx follows into Target (the list's id) and pushes into the history.
type Pager struct {
	Page, Pages, Total, From, To int
	Noun                         string // plural: "teams"
	One                          string // singular: "team"
	Prev, Next                   templ.SafeURL
	Target                       string
}

// NewPager computes a pager for page (1-based) of size over total items; url builds a page's URL.
// noun is "singular/plural" ("team/teams").
func NewPager(page, size, total int, noun, target string, url func(page int) templ.SafeURL) Pager {
	one, many, _ := strings.Cut(noun, "/")
	p := Pager{Page: page, Total: total, One: one, Noun: many, Target: target, Pages: max((total+size-1)/size, 1)}
	if total > 0 {
		p.From = (page-1)*size + 1
		p.To = min(page*size, total)
	}
	if page > 1 {
		p.Prev = url(min(page-1, p.Pages))
	}
	if page < p.Pages {
		p.Next = url(page + 1)
	}
	return p
}

func (p Pager) summary() string {
	switch {
	case p.Total == 0:
		return "No " + p.Noun
	case p.Total == 1:
		return "1 " + p.One
	case p.Pages == 1:
		return strconv.Itoa(p.Total) + " " + p.Noun
	}
	return "Showing " + strconv.Itoa(p.From) + "–" + strconv.Itoa(p.To) + " of " + strconv.Itoa(p.Total) + " " + p.Noun
}
