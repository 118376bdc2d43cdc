package bench

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"slices"
	"strings"
)

// The plot is drawn with the standard library alone: a chart of a few
// lines does not justify a plotting library and its fonts in the binary
// that screens names.

var (
	white     = color.RGBA{255, 255, 255, 255}
	black     = color.RGBA{30, 30, 30, 255}
	grey      = color.RGBA{120, 120, 120, 255}
	lightGrey = color.RGBA{225, 225, 225, 255}
	palette   = []color.RGBA{
		{214, 39, 40, 255},   // red
		{31, 119, 180, 255},  // blue
		{44, 160, 44, 255},   // green
		{255, 127, 14, 255},  // orange
		{148, 103, 189, 255}, // purple
		{140, 86, 75, 255},   // brown
		{227, 119, 194, 255}, // pink
		{23, 190, 207, 255},  // cyan
	}
)

const (
	plotW, plotH = 960, 600
	textScale    = 2
	charW        = 6 * textScale // 5 cells and a gap
	charH        = 7 * textScale
)

// canvas is an RGBA image with the few drawing operations a chart needs.
type canvas struct{ img *image.RGBA }

func (c canvas) set(x, y int, col color.RGBA) {
	if image.Pt(x, y).In(c.img.Rect) {
		c.img.SetRGBA(x, y, col)
	}
}

func (c canvas) rect(x0, y0, x1, y1 int, col color.RGBA) {
	draw.Draw(c.img, image.Rect(x0, y0, x1, y1), &image.Uniform{col}, image.Point{}, draw.Src)
}

func (c canvas) disc(cx, cy, r float64, col color.RGBA) {
	for y := int(cy - r - 1); y <= int(cy+r+1); y++ {
		for x := int(cx - r - 1); x <= int(cx+r+1); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			if dx*dx+dy*dy <= r*r {
				c.set(x, y, col)
			}
		}
	}
}

// line draws a thick line by stamping discs along it; dash > 0 draws
// dashes of that many pixels.
func (c canvas) line(x0, y0, x1, y1, width float64, dash int, col color.RGBA) {
	n := int(math.Hypot(x1-x0, y1-y0)*2) + 1
	for i := 0; i <= n; i++ {
		if dash > 0 && (i/(2*dash))%2 == 1 {
			continue
		}
		t := float64(i) / float64(n)
		c.disc(x0+(x1-x0)*t, y0+(y1-y0)*t, width/2, col)
	}
}

// text draws s with its top-left corner at (x, y).
func (c canvas) text(x, y int, s string, col color.RGBA) {
	for _, r := range s {
		if g, ok := glyph(r); ok {
			for row, bits := range g {
				for k, b := range bits {
					if b == '#' {
						c.rect(x+k*textScale, y+row*textScale, x+(k+1)*textScale, y+(row+1)*textScale, col)
					}
				}
			}
		}
		x += charW
	}
}

func textWidth(s string) int { return len([]rune(s)) * charW }

// axes draws the grid, the ticks and the axes of a recall (y, 0 to 1)
// against false-hit share (x, 0 to xmax) plot in the frame left..right,
// top..bottom, with px and py mapping values to pixels, and labels them.
func (c canvas) axes(left, right, top, bottom int, xmax float64, px, py func(float64) float64, xLabel string) {
	for i := 0; i <= 5; i++ {
		y := py(float64(i) / 5)
		c.line(float64(left), y, float64(right), y, 1, 0, lightGrey)
		lab := fmt.Sprintf("%.1f", float64(i)/5)
		c.text(left-10-textWidth(lab), int(y)-charH/2, lab, black)
	}
	for i := 0; i <= 5; i++ {
		rate := xmax * float64(i) / 5
		x := px(rate)
		c.line(x, float64(top), x, float64(bottom), 1, 0, lightGrey)
		lab := strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.2f", rate*100), "0"), ".0") + "%"
		c.text(int(x)-textWidth(lab)/2, bottom+10, lab, black)
	}
	c.line(float64(left), float64(bottom), float64(right), float64(bottom), 2, 0, black)
	c.line(float64(left), float64(top), float64(left), float64(bottom), 2, 0, black)
	c.text((left+right-textWidth(xLabel))/2, bottom+40, xLabel, black)
	c.text(left-60, top-30, "Recall", black)
}

// niceMax rounds a rate up to an axis end of 1, 2 or 5 times a power of
// ten, at least 5 %.
func niceMax(v float64) float64 {
	v = math.Max(v, 0.05)
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p*1.0001 {
			return m * p
		}
	}
	return 10 * p
}

// plotLevels returns the levels of the first mode measured: the plot
// draws one mode (strict when both were measured), as points of two modes
// sharing a fuzzy label would be read as one curve.
func (rep *QualityReport) plotLevels() []LevelReport {
	var out []LevelReport
	for _, l := range rep.Levels {
		if len(out) == 0 || l.Mode == out[0].Mode {
			out = append(out, l)
		}
	}
	return out
}

// WritePlot draws recall against false-hit rate, one line per recall class
// through the measured fuzzy levels, as a PNG.
func (rep *QualityReport) WritePlot(w io.Writer) error {
	lv := rep.plotLevels()
	c := canvas{image.NewRGBA(image.Rect(0, 0, plotW, plotH))}
	c.rect(0, 0, plotW, plotH, white)
	left, right, top, bottom := 90, plotW-250, 70, plotH-80

	xmax := 0.0
	for _, l := range lv {
		xmax = math.Max(xmax, l.FalseHitRate)
	}
	xmax = niceMax(xmax)
	px := func(rate float64) float64 { return float64(left) + rate/xmax*float64(right-left) }
	py := func(recall float64) float64 { return float64(bottom) - recall*float64(bottom-top) }

	title := fmt.Sprintf("Recall vs false-hit rate, %d records, seed %d", rep.Records, rep.Seed)
	c.text((plotW-textWidth(title))/2, 20, title, black)

	c.axes(left, right, top, bottom, xmax, px, py, "False-hit rate (unlisted names with any hit)")

	// One dashed vertical per fuzzy level: every class shares its x.
	for _, l := range lv {
		x := px(l.FalseHitRate)
		c.line(x, float64(top), x, float64(bottom), 1, 4, grey)
		lab := fmt.Sprintf("F%d", l.Fuzzy)
		c.text(int(x)-textWidth(lab)/2, top-charH-6, lab, grey)
	}

	// Lines and markers, one colour per recall class, leave-one-out last so
	// that it stays on top. The legend gives each class's recall at every
	// level, since lines at 1.0 lie on one another.
	var levels []string
	for _, l := range lv {
		levels = append(levels, fmt.Sprintf("F%d", l.Fuzzy))
	}
	c.text(right+60, top-charH-6, strings.Join(levels, "   "), grey)
	ly := top + 4
	order := append(append([]string(nil), recallClasses[1:]...), recallClasses[0])
	for _, class := range order {
		k := slices.Index(recallClasses, class)
		col := palette[k%len(palette)]
		var pts [][2]float64
		var vals []string
		for _, l := range lv {
			if cr := l.Class(class); cr != nil && cr.Queries > 0 && cr.Recall != nil {
				pts = append(pts, [2]float64{px(l.FalseHitRate), py(*cr.Recall)})
				// Rounded down: 0.997 must not read as a perfect 1.00.
				vals = append(vals, fmt.Sprintf("%.2f", math.Floor(*cr.Recall*100+1e-9)/100))
			}
		}
		if len(pts) == 0 {
			continue
		}
		width := 2.0
		if class == ClassLeaveOneOut {
			width = 4
		}
		for i := 1; i < len(pts); i++ {
			c.line(pts[i-1][0], pts[i-1][1], pts[i][0], pts[i][1], width, 0, col)
		}
		for _, p := range pts {
			c.disc(p[0], p[1], width+2.5, col)
		}
		c.rect(right+30, ly+2, right+52, ly+charH-2, col)
		c.text(right+60, ly, class, black)
		c.text(right+60, ly+charH+4, strings.Join(vals, " "), grey)
		ly += 2*charH + 16
	}
	return png.Encode(w, c.img)
}

// Curve is one line of a recall/false-hit chart: points from left to
// right, each with an optional label (a threshold) drawn beside it.
type Curve struct {
	Name   string
	Points []CurvePoint
	// Dots draws the points without joining them (strict mode's fuzzy
	// levels are separate settings, not a curve).
	Dots bool
}

// CurvePoint is a point of a Curve: x a false-hit share, y a recall.
type CurvePoint struct {
	X, Y  float64
	Label string
}

// writeCurves draws curves of recall (y, 0 to 1) against false-hit share
// (x, from 0 to a round maximum) as a PNG, with a legend.
func writeCurves(w io.Writer, title, xLabel string, curves []Curve) error {
	c := canvas{image.NewRGBA(image.Rect(0, 0, plotW, plotH))}
	c.rect(0, 0, plotW, plotH, white)
	left, right, top, bottom := 90, plotW-250, 70, plotH-80
	xmax := 0.0
	for _, cv := range curves {
		for _, p := range cv.Points {
			xmax = math.Max(xmax, p.X)
		}
	}
	xmax = niceMax(xmax)
	px := func(x float64) float64 { return float64(left) + math.Min(x, xmax)/xmax*float64(right-left) }
	py := func(y float64) float64 { return float64(bottom) - y*float64(bottom-top) }
	c.text((plotW-textWidth(title))/2, 20, title, black)
	c.axes(left, right, top, bottom, xmax, px, py, xLabel)
	ly := top + 4
	for k, cv := range curves {
		col := palette[k%len(palette)]
		for i := 1; i < len(cv.Points) && !cv.Dots; i++ {
			a, b := cv.Points[i-1], cv.Points[i]
			c.line(px(a.X), py(a.Y), px(b.X), py(b.Y), 3, 0, col)
		}
		for _, p := range cv.Points {
			c.disc(px(p.X), py(p.Y), 5, col)
			if p.Label != "" {
				c.text(int(px(p.X))+8, int(py(p.Y))+4, p.Label, col)
			}
		}
		c.rect(right+30, ly+2, right+52, ly+charH-2, col)
		c.text(right+60, ly, cv.Name, black)
		ly += charH + 16
	}
	return png.Encode(w, c.img)
}

// WriteSweepPlot draws scored mode's threshold sweep: leave-one-out recall
// against the pooled false-hit rate, or with clean names against the share
// of clean customers alerted, one curve per fuzzy level through the
// thresholds from 0.5 up (fuzzy 2 labelled every 0.1 and at the report's
// threshold), with strict mode's levels as points, as a PNG. It needs a
// report measured with Sweep.
func (rep *QualityReport) WriteSweepPlot(w io.Writer) error {
	var curves []Curve
	strict := Curve{Name: "strict F0-F2", Dots: true}
	clean := rep.CleanNames > 0
	levelX := func(l *LevelReport) float64 {
		if c := l.Class(ClassFalseClean); clean && c != nil && c.FalseHitRate != nil {
			return rep.CleanAlerts(*c.FalseHitRate) / 1000
		}
		return l.FalseHitRate
	}
	pointX := func(p *SweepPoint) float64 {
		if clean {
			return p.CleanAlerts / 1000
		}
		return p.FalseAll
	}
	for _, l := range rep.Levels {
		if l.Mode == ModeStrict {
			if c := l.Class(ClassLeaveOneOut); c != nil && c.Recall != nil {
				strict.Points = append(strict.Points, CurvePoint{X: levelX(&l), Y: *c.Recall, Label: fmt.Sprintf("F%d", l.Fuzzy)})
			}
			continue
		}
		if len(l.Sweep) == 0 {
			continue
		}
		// Thresholds from 0.5 up: below, more than a few percent of clean
		// names hit, which no screening team accepts, and the curve's
		// interesting end would be squeezed against the axis.
		cv := Curve{Name: fmt.Sprintf("scored F%d", l.Fuzzy)}
		for i := len(l.Sweep) - 1; i >= 0; i-- {
			p := l.Sweep[i]
			if p.MinScore < 0.5-1e-9 {
				continue
			}
			lab := ""
			atDefault := math.Abs(p.MinScore-l.MinScore) < 1e-9
			decile := int(p.MinScore*100+0.5)%10 == 0 && math.Abs(p.MinScore-l.MinScore) > 0.03
			if l.Fuzzy == 2 && (decile || atDefault) {
				lab = fmt.Sprintf("%g", p.MinScore)
			}
			cv.Points = append(cv.Points, CurvePoint{X: pointX(&p), Y: p.Recall[ClassLeaveOneOut], Label: lab})
		}
		curves = append(curves, cv)
	}
	if len(curves) == 0 {
		return fmt.Errorf("no scored-mode sweep in the report: measure with --mode scored (or both) and --sweep")
	}
	if len(strict.Points) > 0 {
		curves = append(curves, strict)
	}
	if clean {
		return writeCurves(w, fmt.Sprintf("Leave-one-out recall vs clean customers alerted, %d records", rep.Records),
			"Clean customers alerted (alerts per 1,000 = 10 x %)", curves)
	}
	return writeCurves(w, fmt.Sprintf("Leave-one-out recall vs false hits, %d records", rep.Records),
		"False-hit rate (clean names with any hit, pooled)", curves)
}
