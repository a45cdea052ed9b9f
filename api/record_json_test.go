package api

import (
	"encoding/json"
	"math/rand/v2"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The hand-written records (record_json.go) are the bytes encoding/json writes: every field set
// (strings that need escaping, times in a zone, numbers in both of JSON's forms), every field
// nil or empty, and GET team's whole answer and headers as the generated response writes them.
func TestRecordJSONMatchesEncoding(t *testing.T) {
	t.Parallel()
	// A field added to the contract's records must be written by their encoders too.
	for typ, n := range map[reflect.Type]int{reflect.TypeFor[TeamDetail](): 13, reflect.TypeFor[OrganizationSummary](): 29,
		reflect.TypeFor[OrgOwner](): 12, reflect.TypeFor[SocialAccount](): 26, reflect.TypeFor[Upload](): 19} {
		require.Equal(t, n, typ.NumField(), "%s changed: update its encoder in record_json.go", typ)
	}
	for seed := range 8 { // 0: zero values; then filled, with floats of every form
		var team TeamDetail
		var acc SocialAccount
		var up Upload
		if seed > 0 {
			n := seed
			fill(reflect.ValueOf(&team).Elem(), &n)
			fill(reflect.ValueOf(&acc).Elem(), &n)
			fill(reflect.ValueOf(&up).Elem(), &n)
		}
		e := postEncoder{}
		got, err := e.socialAccount(nil, &acc)
		require.NoError(t, err)
		want, err := json.Marshal(acc)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), seed)
		got, err = e.upload(nil, &up)
		require.NoError(t, err)
		want, err = json.Marshal(up)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), seed)

		for _, tm := range []TeamDetail{team, {Bots: []Bot{}, SocialAccounts: []SocialAccount{}}} {
			want, got := httptest.NewRecorder(), httptest.NewRecorder()
			require.NoError(t, TeamGetTeam200JSONResponse(tm).VisitTeamGetTeamResponse(want))
			require.NoError(t, teamGetJSON{t: tm}.VisitTeamGetTeamResponse(got))
			require.Equal(t, want.Body.String(), got.Body.String(), seed)
			requireSameHeaders(t, want, got)
			require.Equal(t, want.Code, got.Code)
		}
	}
	// A year JSON cannot write, a number it refuses: both refuse.
	far := time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC)
	require.Error(t, TeamGetTeam200JSONResponse{CreatedBy: OrgOwner{CreatedAt: &far}}.VisitTeamGetTeamResponse(httptest.NewRecorder()))
	require.Error(t, teamGetJSON{t: TeamDetail{CreatedBy: OrgOwner{CreatedAt: &far}}}.VisitTeamGetTeamResponse(httptest.NewRecorder()))
	nan := float32(0) / float32(zero)
	require.Error(t, TeamGetTeam200JSONResponse{Organization: OrganizationSummary{AnalyticsInterval: &nan}}.VisitTeamGetTeamResponse(httptest.NewRecorder()))
	require.Error(t, teamGetJSON{t: TeamDetail{Organization: OrganizationSummary{AnalyticsInterval: &nan}}}.VisitTeamGetTeamResponse(httptest.NewRecorder()))
	inf := 1 / float64(zero)
	_, err := (&postEncoder{}).upload(nil, &Upload{Width: &inf})
	require.Error(t, err)
}

var zero = 0

// fill sets every field of v, pointers and slices included, each leaf to a value of its own (n
// counts them).
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 28, 5, 40, *n%60, 123456789**n, time.FixedZone("X", 5*3600+1800))))
			return
		}
		for i := range v.NumField() {
			fill(v.Field(i), n)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString([]string{"", "plain", "Tab\there <b>&</b> \"q\" é \u2028 \xff", "x"}[*n%4] + strconv.Itoa(*n))
	case reflect.Bool:
		v.SetBool(rand.New(rand.NewPCG(uint64(*n), 1)).IntN(2) == 1) // two fields rarely agree on every seed
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n * 1234567))
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, 1234.5, 1.5e-7, 3e21, 1e20, 7}[*n%6] + float64(*n%3))
	case reflect.Interface:
		v.Set(reflect.ValueOf(*n))
	}
}
