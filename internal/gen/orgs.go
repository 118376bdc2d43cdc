package gen

import (
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/record"
)

// Entity and source type mix, in tenths of a percent. Source types depend
// on the entity type the way they do in real data (vessels are sanctioned,
// not politically exposed), and are tuned so that the totals come out at
// about 40% SANCTION, 40% PEP, 10% CRIMINAL, 5% NON_COMPLIANT_TAXPAYER and
// 5% OTHER.
var (
	entityTypes = []weighted[string]{
		{550, record.EntityIndividual}, {350, record.EntityEntity}, {40, record.EntityVessel},
		{20, record.EntityAircraft}, {10, record.EntityJurisdiction}, {10, record.EntityObject}, {20, record.EntityUnknown},
	}
	sourceTypesFor = map[string][]weighted[string]{
		record.EntityIndividual: {{214, record.SourceSanction}, {600, record.SourcePEP}, {135, record.SourceCriminal},
			{34, record.SourceNonCompliantTaxpayer}, {18, record.SourceOther}},
		record.EntityEntity: {{550, record.SourceSanction}, {200, record.SourcePEP}, {60, record.SourceCriminal},
			{90, record.SourceNonCompliantTaxpayer}, {100, record.SourceOther}},
		record.EntityUnknown: {{500, record.SourceSanction}, {250, record.SourceCriminal}, {250, record.SourceOther}},
	}
)

var (
	listDateFrom = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	listDateTo   = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
)

// fill generates one record into rec, whose id is already set.
func fill(r *rng, rec *record.Record) {
	et := choose(r, entityTypes)
	st := record.SourceSanction
	if l, ok := sourceTypesFor[et]; ok {
		st = choose(r, l)
	}
	src := choose(r, sourcesByTyp[st])
	rec.EntityType, rec.SourceType, rec.SourceID = et, st, src.id
	if r.chance(0.95) {
		const day = 24 * 3600 * 1000
		rec.ListDate = listDateFrom + r.Int64N((listDateTo-listDateFrom)/day)*day
	}
	var rg *regime
	if st == record.SourceSanction {
		rg = regimes[choose(r, src.regimes)]
	}
	switch et {
	case record.EntityIndividual:
		cults := src.cultures
		if rg != nil {
			cults = rg.cultures
		}
		individual(r, rec, src, cultures[choose(r, cults)], rg)
	case record.EntityEntity:
		entity(r, rec, src, rg)
	case record.EntityVessel:
		vessel(r, rec, src)
	case record.EntityAircraft:
		aircraft(r, rec, src)
	case record.EntityJurisdiction:
		jurisdiction(r, rec, src)
	case record.EntityObject:
		object(r, rec, src)
	default:
		unknown(r, rec, src, rg)
	}
}

// orgName is the naming part of an organisation's record.
type orgName struct {
	name    string
	tl      string
	aliases []string
	cc      string // jurisdiction
}

// orgStyle is how companies of one language area are named.
type orgStyle struct {
	key           string
	jurisdictions []weighted[string]
	brands        []string
	industries    []string
	industryFirst float64 // share of names that put the industry first
	german        bool
	build         func(r *rng, st *orgStyle, cc string) orgName
}

// formsByJurisdiction lists, per jurisdiction, its legal forms as classes
// of spellings that mean the same form: a record uses one spelling and its
// aliases often another, as real lists do.
var formsByJurisdiction = map[string][][]string{
	"US": {{"LLC", "L.L.C.", "Limited Liability Company"}, {"Inc.", "Inc", "Incorporated"}, {"Corp.", "Corporation"}},
	"GB": {{"Ltd", "Ltd.", "Limited"}, {"Ltd", "Limited"}, {"PLC", "plc", "Public Limited Company"}, {"LLP", "Limited Liability Partnership"}},
	"IE": {{"Limited", "Ltd", "Teoranta"}, {"DAC", "Designated Activity Company"}, {"Unlimited Company", "UC"}},
	"CY": {{"Ltd", "Limited"}},
	"VG": {{"Ltd (BVI)", "Limited", "Ltd."}, {"Inc.", "Incorporated"}},
	"SC": {{"IBC", "International Business Company"}, {"Ltd", "Limited"}},
	"PA": {{"S.A.", "SA", "Sociedad Anónima"}, {"Inc.", "Incorporated"}},
	"MH": {{"Inc.", "Incorporated"}, {"Corp.", "Corporation"}},
	"MT": {{"Ltd", "Limited"}},
	"HK": {{"Limited", "Ltd"}, {"Co., Limited", "Company Limited", "Co., Ltd."}},
	"SG": {{"Pte. Ltd.", "Pte Ltd", "Private Limited"}},
	"NG": {{"Limited", "Ltd"}, {"Plc", "PLC", "Public Limited Company"}},
	"DE": {{"GmbH", "Gesellschaft mit beschränkter Haftung", "G.m.b.H."}, {"GmbH", "Gesellschaft mit beschränkter Haftung"}, {"AG", "Aktiengesellschaft"}, {"GmbH & Co. KG"}, {"KG", "Kommanditgesellschaft"}, {"UG (haftungsbeschränkt)"}},
	"AT": {{"GmbH", "Gesellschaft mit beschränkter Haftung", "Ges.m.b.H."}, {"AG", "Aktiengesellschaft"}},
	"CH": {{"AG", "Aktiengesellschaft"}, {"SA", "S.A.", "Société anonyme"}, {"GmbH", "Gesellschaft mit beschränkter Haftung"}, {"Sàrl", "Société à responsabilité limitée"}},
	"FR": {{"SARL", "S.A.R.L.", "Société à responsabilité limitée"}, {"SA", "S.A.", "Société anonyme"}, {"SAS", "S.A.S.", "Société par actions simplifiée"}},
	"BE": {{"SA", "S.A.", "Société anonyme"}, {"SRL", "Société à responsabilité limitée"}, {"BV", "Besloten Vennootschap"}},
	"LU": {{"S.à r.l.", "SARL", "Société à responsabilité limitée"}, {"S.A.", "SA", "Société anonyme"}},
	"ES": {{"S.A.", "SA", "Sociedad Anónima"}, {"S.L.", "SL", "Sociedad Limitada", "Sociedad de Responsabilidad Limitada"}},
	"MX": {{"S.A. de C.V.", "SA de CV", "Sociedad Anónima de Capital Variable"}, {"S. de R.L. de C.V.", "Sociedad de Responsabilidad Limitada de Capital Variable"}},
	"VE": {{"C.A.", "CA", "Compañía Anónima"}, {"S.A.", "Sociedad Anónima"}},
	"CO": {{"S.A.S.", "SAS", "Sociedad por Acciones Simplificada"}, {"Ltda.", "Limitada"}, {"S.A.", "Sociedad Anónima"}},
	"AR": {{"S.A.", "Sociedad Anónima"}, {"S.R.L.", "SRL", "Sociedad de Responsabilidad Limitada"}},
	"BR": {{"S.A.", "SA", "Sociedade Anônima"}, {"Ltda.", "Limitada"}},
	"IT": {{"S.p.A.", "SpA", "Società per Azioni"}, {"S.r.l.", "Srl", "Società a responsabilità limitata"}},
	"NL": {{"B.V.", "BV", "Besloten Vennootschap"}, {"N.V.", "NV", "Naamloze Vennootschap"}},
	"SE": {{"AB", "Aktiebolag"}},
	"NO": {{"AS", "Aksjeselskap"}, {"ASA", "Allmennaksjeselskap"}},
	"FI": {{"Oy", "Osakeyhtiö"}, {"Oyj", "Julkinen osakeyhtiö"}},
	"DK": {{"A/S", "Aktieselskab"}, {"ApS", "Anpartsselskab"}},
	"TR": {{"A.Ş.", "AŞ", "Anonim Şirketi"}, {"Ltd. Şti.", "Limited Şirketi"}},
	"AE": {{"FZE", "Free Zone Establishment"}, {"FZCO", "Free Zone Company"}, {"FZ-LLC", "FZ LLC"}, {"L.L.C.", "LLC", "Limited Liability Company"}},
	"IN": {{"Pvt. Ltd.", "Private Limited"}, {"Ltd.", "Limited"}},
	"IR": {{"Co.", "Company"}, {"PJSC", "Public Joint Stock Company"}, {"PJS", "Private Joint Stock Company"}},
	"KP": {{"Corporation", "Corp."}, {"Company", "Co."}},
	"KR": {{"Corporation", "Corp."}, {"Co., Ltd.", "Company Limited"}},
	"JP": {{"Co., Ltd.", "Kabushiki Kaisha", "K.K."}},
	"LB": {{"S.A.L.", "SAL"}, {"S.A.R.L.", "SARL"}},
	"KW": {{"W.L.L.", "WLL"}, {"K.S.C.", "KSC"}},
	"QA": {{"W.L.L.", "WLL"}, {"Q.S.C.", "QSC"}},
	"SA": {{"Co.", "Company"}, {"LLC", "L.L.C.", "Limited Liability Company"}},
	"SY": {{"Co.", "Company"}, {"LLC", "L.L.C."}},
	"IQ": {{"Co.", "Company"}, {"LLC", "L.L.C."}},
}

var orgStyles = map[string]*orgStyle{}

func init() {
	for _, st := range []*orgStyle{
		{key: "en", jurisdictions: ws("GB:28 US:25 CY:10 VG:10 SC:5 PA:5 MH:5 MT:4 HK:5 SG:3"),
			brands:     list("Apex, Summit, Meridian, Crescent, Sterling, Northstar, Bluewater, Pinnacle, Horizon, Vanguard, Keystone, Atlas, Orion, Falcon, Phoenix, Sovereign, Trident, Harbour, Redwood, Silverline, Goldcrest, Eastgate, Westbridge, Oakridge, Greenfield, Highland, Coastal, Continental, Global, United, Royal, Imperial, Pacific, Atlantic, Caspian, Baltic, Arctic, Orient, Liberty, Unity, Prime, Alpha, Delta, Omega, Zenith, Crown, Kingsway, Bright Star, Silver Oak, Blue Ridge"),
			industries: list("Trading, Holdings, Shipping, Petroleum, Industrial, Group, Capital, Logistics, Energy, Metals, Invest, Investments, Marine, Resources, Technologies, Engineering, Chemicals, Mining, Construction, Commodities, Finance, Insurance, Aviation, Pharmaceuticals, Electronics, Textiles, Agro, Real Estate, Consulting, Security, Telecom, Import Export, General Trading, Oil and Gas, Steel, Bank, Ventures, Maritime, Freight")},
		{key: "de", jurisdictions: ws("DE:75 AT:15 CH:10"), german: true,
			brands:     list("Nordstern, Rheintal, Alpen, Hansa, Elbe, Adler, Falken, Sonnen, Weser, Donau, Löwen, Edelweiß, Bergland, Süd, Ostsee, Isar, Main, Schwarzwald, Tauern"),
			industries: list("Handel, Logistik, Energie, Maschinenbau, Metall, Bau, Technik, Invest, Immobilien, Anlagenbau, Chemie, Handelsgesellschaft, Industrietechnik, Verwaltung, Beteiligungs, Spedition, Elektronik, Werkzeugbau")},
		{key: "fr", jurisdictions: ws("FR:65 BE:15 LU:10 CH:10"), industryFirst: 0.4,
			brands:     list("Atlantique, Méditerranée, Horizon, Étoile, Lumière, Provence, Alpes, Océan, Sahel, Saint-Louis, Azur, Garonne, Loire, Normandie, Sirocco"),
			industries: list("Négoce, Transports, Énergie, Industries, Finance, Immobilier, Import-Export, Bâtiment, Technologies, Conseil, Distribution, Participations, Pétrole, Shipping")},
		{key: "es", jurisdictions: ws("MX:30 VE:20 CO:20 ES:15 AR:10 PA:5"), industryFirst: 0.8,
			brands:     list("Del Pacífico, Los Andes, El Dorado, San Miguel, Santa Fe, La Esperanza, Del Norte, Sol y Mar, Costa Azul, Gran Sabana, Monte Verde, Río Bravo, Las Palmas, La Victoria, Tres Ríos, Del Caribe, Sierra Madre, Orinoco, Altamira"),
			industries: list("Inversiones, Comercializadora, Grupo, Transportes, Agropecuaria, Constructora, Importadora, Minera, Petrolera, Servicios, Distribuidora, Inmobiliaria, Casa de Cambio, Farmacéutica")},
		{key: "pt", jurisdictions: ws("BR:100"), industryFirst: 0.3,
			brands:     list("Paulista, Atlântico, Amazônia, Cerrado, Horizonte, Guanabara, Planalto, Aurora, Tropical, Minas"),
			industries: list("Comércio, Transportes, Energia, Mineração, Construções, Participações, Petróleo, Agronegócio, Engenharia")},
		{key: "it", jurisdictions: ws("IT:100"),
			brands:     list("Mediterranea, Adriatica, Tirrena, Aurora, Stella, Sole, Vesuvio, Etna, Lombarda, Toscana, Calabra, Sicula, Ligure"),
			industries: list("Costruzioni, Trasporti, Energia, Commerciale, Immobiliare, Industrie, Meccanica, Petroli, Navigazione, Servizi, Finanziaria")},
		{key: "nl", jurisdictions: ws("NL:100"),
			brands:     list("Oranje, Noordzee, Zeeland, Holland, Rijnmond, Amstel, Maas, Waal, Delftse, Friese"),
			industries: list("Handel, Scheepvaart, Energie, Holding, Beheer, Logistiek, Trading, Investments, Chemie")},
		{key: "nordic", jurisdictions: ws("SE:30 NO:30 FI:20 DK:20"),
			brands:     list("Nordic, Fjord, Viking, Polar, Nord, Skandia, Midnight Sun, Lapland, Kattegat, Bothnia"),
			industries: list("Shipping, Trading, Energi, Invest, Logistik, Marine, Bunkering, Offshore")},
		{key: "tr", jurisdictions: ws("TR:100"),
			brands:     list("Anadolu, Marmara, Karadeniz, Ege, Boğaziçi, Toros, Yıldız, Güneş, Kartal, Fırat, Dicle"),
			industries: list("Dış Ticaret, Petrol, Denizcilik, İnşaat, Enerji, Lojistik, Kimya, Tekstil, Gıda, Madencilik, Sanayi ve Ticaret, Altın")},
		{key: "in", jurisdictions: ws("IN:100"),
			brands:     list("Shree, Om Sai, Bharat, Hindustan, Ganga, Lakshmi, Sagar, Surya, Shakti, Vishal, Jai Hind"),
			industries: list("Exports, Trading, Infrastructure, Pharmaceuticals, Textiles, Chemicals, Steel, Engineering, Agro Industries, Logistics")},
		{key: "ae", jurisdictions: ws("AE:100"),
			brands:     list("Al Noor, Al Safwa, Al Baraka, Al Amal, Al Fajr, Al Khaleej, Al Reem, Golden Sands, Gulf Pearl, Desert Rose, Blue Ocean, Sea Star, Jebel, Hormuz, Marjan, Al Maktoum Star"),
			industries: list("General Trading, Petroleum, Shipping, Marine Services, Bunkering, Gold and Jewellery, Electronics, Logistics, Investments, Petrochemicals, Ship Management")},
		{key: "ir", jurisdictions: ws("IR:100"),
			brands:     list("Pars, Kish, Persian Gulf, Arya, Sepahan, Khazar, Alborz, Damavand, Hormoz, Tavan, Farayand, Behnam, Sina, Mobin, Zagros, Karun"),
			industries: list("Petrochemical, Shipping, Industries, Trading, Electronic, Engineering, Oil Refining, Steel, Aviation, Exchange, Aerospace, Composite")},
		{key: "ru", jurisdictions: ws("RU:82 BY:8 KZ:5 UA:5"), build: russianOrg},
		{key: "cn", jurisdictions: ws("CN:80 HK:20"), build: chineseOrg},
		{key: "ar", jurisdictions: ws("SY:25 IQ:20 LB:15 SA:10 YE:10 KW:5 QA:5 JO:5 LY:5"), build: arabicOrg},
		{key: "kp", jurisdictions: ws("KP:100"), build: koreanOrg},
		{key: "jp", jurisdictions: ws("JP:100"), build: japaneseOrg},
	} {
		orgStyles[st.key] = st
	}
}

// globalStyles is the company mix of lists that are not sanctions.
var globalStyles = ws("en:30 de:6 fr:6 es:12 pt:3 it:5 nl:4 nordic:3 ru:10 cn:8 jp:2 ae:5 tr:4 in:5 ar:4")

// pepStyles gives the company style of each PEP country's state-owned
// enterprises.
var pepStyles = map[string]string{"GB": "en", "US": "en", "DE": "de", "FR": "fr", "IT": "it", "BR": "pt", "TR": "tr", "RU": "ru",
	"UA": "ru", "AE": "ae", "CN": "cn", "KR": "kp", "NG": "en", "IN": "in"}

// buildOrg names one organisation in style st, in jurisdiction cc or, when
// cc is empty, one of the style's own.
func buildOrg(r *rng, st *orgStyle, cc string) orgName {
	if cc == "" {
		cc = choose(r, st.jurisdictions)
	}
	if st.build != nil {
		return st.build(r, st, cc)
	}
	b := pick(r, st.brands)
	ind := pick(r, st.industries)
	if r.chance(0.25) {
		if i2 := pick(r, st.industries); i2 != ind {
			ind += " " + i2
		}
	}
	core := b + " " + ind
	if r.chance(st.industryFirst) {
		core = ind + " " + b
	}
	forms := formsByJurisdiction[cc]
	if len(forms) == 0 {
		forms = formsByJurisdiction["GB"]
	}
	cls := pick(r, forms)
	f := cls[0]
	if len(cls) > 1 && r.chance(0.35) {
		f = cls[1+r.IntN(len(cls)-1)]
	}
	n := orgName{name: core + " " + f, cc: cc}
	if r.chance(0.3) {
		n.name = strings.ToUpper(n.name)
	}
	if len(cls) > 1 && r.chance(0.55) {
		for _, alt := range cls {
			if alt != f {
				n.aliases = appendUnique(n.aliases, core+" "+alt, n.name)
				break
			}
		}
	}
	if r.chance(0.25) {
		n.aliases = appendUnique(n.aliases, core, n.name)
	}
	if fold := asciiFold(core+" "+f, st.german); fold != core+" "+f && r.chance(0.6) {
		n.aliases = appendUnique(n.aliases, fold, n.name)
	}
	if r.chance(0.12) {
		// A former name.
		n.aliases = appendUnique(n.aliases, pick(r, st.brands)+" "+pick(r, st.industries)+" "+pick(r, pick(r, forms)), n.name)
	}
	return n
}

// Russian company names: Cyrillic stems with romanisations and English
// meaning. Brands join a place stem with one or two industry stems
// (Урал+пром+строй → Уралпромстрой) or are a single word (Вектор).
type ruStem struct{ cyr, lat, lat2, en string }

func parseStems(s string) []ruStem {
	var out []ruStem
	for _, f := range lines(s) {
		out = append(out, ruStem{f[0], f[1], f[2], f[3]})
	}
	return out
}

var (
	ruPlaces = parseStems(`
Урал|Ural|Ural|Ural
Волга|Volga|Wolga|Volga
Сиб|Sib|Sib|Siberian
Балт|Balt|Balt|Baltic
Кубань|Kuban|Kuban|Kuban
Мос|Mos|Mos|Moscow
Дон|Don|Don|Don
Амур|Amur|Amur|Amur
Сев|Sev|Sev|Northern
Восток|Vostok|Vostock|Eastern
Югра|Yugra|Iugra|Yugra
Яросл|Yarosl|Jarosl|Yaroslavl
Тюмень|Tyumen|Tiumen|Tyumen
Камчатка|Kamchatka|Kamtchatka|Kamchatka
`)
	ruIndustries = parseStems(`
пром|prom|prom|Industrial
строй|stroy|stroi|Construction
нефть|neft|neft|Oil
газ|gaz|gas|Gas
транс|trans|trans|Transport
энерго|energo|energo|Energy
инвест|invest|invest|Investment
металл|metall|metal|Metal
снаб|snab|snab|Supply
техно|tekhno|techno|Technology
флот|flot|flot|Fleet
торг|torg|torg|Trade
хим|khim|chim|Chemical
маш|mash|mash|Engineering
лес|les|les|Timber
агро|agro|agro|Agro
`)
	ruWords = parseStems(`
Вектор|Vektor|Vector|Vector
Гранит|Granit|Granite|Granite
Меридиан|Meridian|Meridian|Meridian
Феникс|Feniks|Phoenix|Phoenix
Атлант|Atlant|Atlant|Atlant
Сокол|Sokol|Sokol|Falcon
Империал|Imperial|Imperial|Imperial
Альянс|Alyans|Alliance|Alliance
Спектр|Spektr|Spectr|Spectrum
Прогресс|Progress|Progress|Progress
Стрела|Strela|Strela|Arrow
Звезда|Zvezda|Swesda|Star
Рубин|Rubin|Rubin|Ruby
Ладога|Ladoga|Ladoga|Ladoga
`)
	// Russian legal forms: short Cyrillic, long Cyrillic, romanised short,
	// English short, English long.
	ruForms = [][5]string{
		{"ООО", "Общество с ограниченной ответственностью", "OOO", "LLC", "Limited Liability Company"},
		{"ООО", "Общество с ограниченной ответственностью", "OOO", "LLC", "Limited Liability Company"},
		{"АО", "Акционерное общество", "AO", "JSC", "Joint Stock Company"},
		{"ПАО", "Публичное акционерное общество", "PAO", "PJSC", "Public Joint Stock Company"},
		{"ЗАО", "Закрытое акционерное общество", "ZAO", "CJSC", "Closed Joint Stock Company"},
		{"ОАО", "Открытое акционерное общество", "OAO", "OJSC", "Open Joint Stock Company"},
	}
	kzForm = [5]string{"ТОО", "Товарищество с ограниченной ответственностью", "TOO", "LLP", "Limited Liability Partnership"}
	uaForm = [5]string{"ТОВ", "Товариство з обмеженою відповідальністю", "TOV", "LLC", "Limited Liability Company"}
)

func russianOrg(r *rng, _ *orgStyle, cc string) orgName {
	var cyr, lat, lat2, en string
	if r.chance(0.25) {
		w := pick(r, ruWords)
		cyr, lat, lat2, en = w.cyr, w.lat, w.lat2, w.en
	} else {
		p := pick(r, ruPlaces)
		i1 := pick(r, ruIndustries)
		cyr, lat, lat2, en = p.cyr+i1.cyr, p.lat+i1.lat, p.lat2+i1.lat2, p.en+" "+i1.en
		if r.chance(0.35) {
			if i2 := pick(r, ruIndustries); i2.cyr != i1.cyr {
				cyr, lat, lat2, en = cyr+i2.cyr, lat+i2.lat, lat2+i2.lat2, en+" "+i2.en
			}
		}
		cyr, lat, lat2 = upperFirst(strings.ToLower(cyr)), upperFirst(strings.ToLower(lat)), upperFirst(strings.ToLower(lat2))
	}
	form := pick(r, ruForms)
	switch cc {
	case "KZ":
		form = kzForm
	case "UA":
		form = uaForm
	}
	quoted := "\"" + cyr + "\""
	cands := []string{
		form[0] + " " + quoted,                 // ООО "Уралпромстрой"
		form[1] + " " + quoted,                 // Общество с ограниченной ответственностью "Уралпромстрой"
		lat + " " + form[3],                    // Uralpromstroy LLC
		form[2] + " " + strings.ToUpper(lat),   // OOO URALPROMSTROY
		form[3] + " " + lat,                    // LLC Uralpromstroy
		form[4] + " " + lat,                    // Limited Liability Company Uralpromstroy
		form[2] + " \"" + lat2 + "\"",          // OOO "Uralpromstroi"
		en + " " + form[4],                     // Ural Industrial Construction Limited Liability Company
		strings.ToUpper(lat2) + ", " + form[3], // URALPROMSTROI, LLC
	}
	n := orgName{cc: cc}
	switch x := r.IntN(100); {
	case x < 50:
		n.name = cands[0]
	case x < 62:
		n.name = cands[1]
	case x < 80:
		n.name = cands[2]
	default:
		n.name = cands[3]
	}
	for k := 0; k < 1+r.IntN(3); k++ {
		n.aliases = appendUnique(n.aliases, pick(r, cands), n.name)
	}
	return n
}

// Chinese company names: city, brand, industry and form, each in Han with
// pinyin syllables and English.
type cnPart struct{ han, py, en string }

func parseCN(s string) []cnPart {
	var out []cnPart
	for _, f := range lines(s) {
		out = append(out, cnPart{f[0], f[1], f[2]})
	}
	return out
}

var (
	cnCities = parseCN(`
上海|Shang Hai|Shanghai
深圳|Shen Zhen|Shenzhen
北京|Bei Jing|Beijing
广州|Guang Zhou|Guangzhou
天津|Tian Jin|Tianjin
大连|Da Lian|Dalian
宁波|Ning Bo|Ningbo
厦门|Xia Men|Xiamen
青岛|Qing Dao|Qingdao
香港|Xiang Gang|Hong Kong
`)
	cnBrands = parseCN(`
华兴|Hua Xing|Huaxing
金龙|Jin Long|Jinlong
宏达|Hong Da|Hongda
东方|Dong Fang|Dongfang
泰丰|Tai Feng|Taifeng
恒通|Heng Tong|Hengtong
长城|Chang Cheng|Changcheng
海丰|Hai Feng|Haifeng
瑞达|Rui Da|Ruida
鑫源|Xin Yuan|Xinyuan
天宇|Tian Yu|Tianyu
联创|Lian Chuang|Lianchuang
永盛|Yong Sheng|Yongsheng
嘉禾|Jia He|Jiahe
富达|Fu Da|Fuda
明珠|Ming Zhu|Mingzhu
银河|Yin He|Yinhe
腾飞|Teng Fei|Tengfei
`)
	cnIndustries = parseCN(`
贸易|Mao Yi|Trading
航运|Hang Yun|Shipping
科技|Ke Ji|Technology
电子|Dian Zi|Electronics
能源|Neng Yuan|Energy
化工|Hua Gong|Chemical
物流|Wu Liu|Logistics
投资|Tou Zi|Investment
国际贸易|Guo Ji Mao Yi|International Trading
实业|Shi Ye|Industrial
矿业|Kuang Ye|Mining
石油|Shi You|Petroleum
机械|Ji Xie|Machinery
电子科技|Dian Zi Ke Ji|Electronic Technology
`)
	cnForms = parseCN(`
有限公司|You Xian Gong Si|Co., Ltd.
有限公司|You Xian Gong Si|Company Limited
股份有限公司|Gu Fen You Xian Gong Si|Co., Ltd.
有限责任公司|You Xian Ze Ren Gong Si|Limited Liability Company
`)
)

func chineseOrg(r *rng, _ *orgStyle, cc string) orgName {
	city := pick(r, cnCities[:9])
	if cc == "HK" {
		city = cnCities[9]
	}
	b, ind, f := pick(r, cnBrands), pick(r, cnIndustries), pick(r, cnForms)
	han := city.han + b.han + ind.han + f.han
	if r.chance(0.3) && cc != "HK" {
		han = city.han + "市" + b.han + ind.han + f.han
	}
	tl := city.py + " " + b.py + " " + ind.py + " " + f.py
	en := city.en + " " + b.en + " " + ind.en + " " + f.en
	if cc == "HK" {
		en = b.en + " " + ind.en + " " + pick(r, list("Limited, Co., Limited, (HK) Limited, International Limited"))
	}
	n := orgName{cc: cc}
	if cc != "HK" && r.chance(0.55) {
		n.name, n.tl = han, tl
		n.aliases = append(n.aliases, en)
	} else {
		n.name = en
		if r.chance(0.3) {
			n.name = strings.ToUpper(en)
		}
		if r.chance(0.5) {
			n.aliases = append(n.aliases, han)
		}
	}
	if r.chance(0.3) {
		n.aliases = appendUnique(n.aliases, strings.ToUpper(strings.NewReplacer(",", "", ".", "").Replace(en)), n.name)
	}
	return n
}

// Arabic organisation names: templates in Arabic script, their
// transliteration and English, with X standing for the brand.
var (
	arBrands = parseScripted(`
الرحمة|al-Rahma,Al Rahma
الهدى|al-Huda,Al Huda
النور|al-Nur,Al Noor
الأقصى|al-Aqsa,Al Aqsa
الفرقان|al-Furqan,Al Furqan
الأمانة|al-Amana,Al Amanah
الوفاء|al-Wafa,Al Wafa
دار السلام|Dar al-Salam,Dar Al Salam
الشام|al-Sham,Cham
الرافدين|al-Rafidayn,Al Rafidain
بابل|Babil,Babylon
الساحل|al-Sahil,Al Sahel
الأندلس|al-Andalus,Andalus
البركات|al-Barakat,Barakaat
الفجر|al-Fajr,Al Fajr
`)
	arTemplates = [][3]string{
		{"شركة X للتجارة", "Sharikat X lil-Tijara", "X Trading Company"},
		{"مؤسسة X الخيرية", "Muassasat X al-Khayriya", "X Charitable Foundation"},
		{"شركة X للصرافة", "Sharikat X lil-Sirafa", "X Exchange Company"},
		{"مجموعة X القابضة", "Majmuat X al-Qabida", "X Holding Group"},
		{"شركة X للمقاولات", "Sharikat X lil-Muqawalat", "X Contracting Company"},
		{"شركة X للنفط", "Sharikat X lil-Naft", "X Oil Company"},
		{"شركة X للسياحة والسفر", "Sharikat X lil-Siyaha wal-Safar", "X Travel and Tourism Company"},
		{"جمعية X الإسلامية", "Jamiyat X al-Islamiya", "X Islamic Society"},
	}
)

func arabicOrg(r *rng, _ *orgStyle, cc string) orgName {
	b := pick(r, arBrands)
	t := pick(r, arTemplates)
	native := strings.Replace(t[0], "X", b.native, 1)
	tl := strings.Replace(t[1], "X", b.lat[0], 1)
	en := strings.Replace(t[2], "X", pick(r, b.lat), 1)
	if forms := formsByJurisdiction[cc]; len(forms) > 0 && r.chance(0.35) {
		// Templates already say Company or Foundation; only a form that
		// adds something (LLC, W.L.L., S.A.L.) is appended.
		if f := pick(r, forms); f[0] != "Co." && f[0] != "Company" && f[0] != "Corporation" {
			en += " " + pick(r, f)
		}
	}
	n := orgName{cc: cc}
	if r.chance(0.4) {
		n.name, n.tl = native, tl
		n.aliases = append(n.aliases, en)
	} else {
		n.name = en
		if r.chance(0.3) {
			n.aliases = append(n.aliases, native)
		}
		if r.chance(0.3) {
			n.aliases = appendUnique(n.aliases, strings.Replace(t[2], "X", b.lat[len(b.lat)-1], 1), n.name)
		}
	}
	return n
}

var kpBrands = list("Ryonbong, Tanchon, Kumgang, Myohyang, Paekho, Chosun, Haegumgang, Sobaeksu, Namgang, Hyoksin, Sungri, Kwangmyong, Ryugyong, Chongchongang, Taesong, Mirae, Hana, Saenal")

func koreanOrg(r *rng, _ *orgStyle, cc string) orgName {
	b := pick(r, kpBrands)
	prefix := "Korea"
	if cc == "KR" {
		prefix = pick(r, list("Korea, Hanguk, Daehan"))
	}
	kind := pick(r, list("Trading, General Trading, Mining Development Trading, Shipping, Industrial, Ocean Shipping, Technology, Bank"))
	form := pick(r, formsByJurisdiction[cc])
	core := prefix + " " + b + " " + kind
	if r.chance(0.4) {
		core = b + " " + kind
	}
	n := orgName{cc: cc, name: core + " " + form[0]}
	if r.chance(0.3) {
		n.name = strings.ToUpper(n.name)
	}
	if len(form) > 1 {
		n.aliases = append(n.aliases, core+" "+form[1])
	}
	if r.chance(0.4) {
		n.aliases = appendUnique(n.aliases, b+" "+form[0], n.name)
	}
	return n
}

var (
	jpBrands = parseScripted(`
東海|Tokai
日本|Nippon
第一|Daiichi
三和|Sanwa
極東|Kyokuto
富士|Fuji
大和|Yamato
太陽|Taiyo
旭|Asahi
中央|Chuo
`)
	jpIndustries = [][3]string{{"商事", "Shoji", "Trading"}, {"海運", "Kaiun", "Shipping"}, {"石油", "Sekiyu", "Oil"}, {"工業", "Kogyo", "Industries"}, {"貿易", "Boeki", "Trade"}, {"汽船", "Kisen", "Steamship"}}
)

func japaneseOrg(r *rng, _ *orgStyle, cc string) orgName {
	b := pick(r, jpBrands)
	ind := pick(r, jpIndustries)
	n := orgName{cc: cc}
	romaji := b.lat[0] + " " + ind[1]
	switch r.IntN(3) {
	case 0:
		n.name = romaji + " Co., Ltd."
	case 1:
		n.name = romaji + " Kabushiki Kaisha"
	default:
		n.name = b.lat[0] + " " + ind[2] + " Co., Ltd."
	}
	n.aliases = appendUnique(n.aliases, b.native+ind[0]+"株式会社", n.name)
	if r.chance(0.5) {
		n.aliases = appendUnique(n.aliases, romaji+" K.K.", n.name)
	}
	return n
}

// entity fills rec as a company or organisation.
func entity(r *rng, rec *record.Record, src *source, rg *regime) {
	styleKey := choose(r, globalStyles)
	cc := ""
	switch {
	case rg != nil:
		styleKey = choose(r, rg.styles)
		if len(rg.countries) > 0 {
			// The regime's country, where companies of this style are
			// registered there (Syrian regime: Syrian companies).
			if c := choose(r, rg.countries); hasJurisdiction(orgStyles[styleKey], c) {
				cc = c
			}
		}
	case rec.SourceType == record.SourcePEP:
		styleKey, cc = pepStyles[src.country], src.country
	case len(src.citizenship) > 0:
		styleKey, cc = "en", choose(r, src.citizenship)
	}
	st := orgStyles[styleKey]
	n := buildOrg(r, st, cc)
	rec.Name, rec.TLName, rec.AliasNames = n.name, n.tl, n.aliases
	cc = n.cc
	if r.chance(0.8) {
		rec.Jurisdiction = []string{cc}
	}
	if r.chance(0.5) {
		rec.CompanyNumber = []string{companyNumber(r, cc)}
	}
	if r.chance(0.65) {
		rec.Address = []string{orgAddress(r, cc)}
		if r.chance(0.1) {
			rec.Address = appendUnique(rec.Address, orgAddress(r, cc))
		}
	}
	if r.chance(0.15) {
		if slug := domainSlug(n.name, n.aliases); slug != "" {
			rec.Links = []string{"https://www." + slug + topLevelDomain(cc)}
		}
	}
	if r.chance(0.15) {
		rec.OtherInformation = append(rec.OtherInformation, "Organization Established Date "+dob(r, r.between(1992, 2023)))
	}
	switch rec.SourceType {
	case record.SourceSanction:
		rec.SanctionDetails = sanctionDetails(r, src, rg)
		if rg != nil && len(rg.remarks) > 0 && r.chance(0.3) {
			rec.OtherInformation = append(rec.OtherInformation, pick(r, rg.remarks))
		}
		if r.chance(0.2) {
			rec.OtherInformation = append(rec.OtherInformation, "Target Type "+pick(r, list("Shipping company, Financial institution, Front company, State-owned enterprise, Defence manufacturer, Procurement network, Charity, Oil trader")))
		}
	case record.SourcePEP:
		rec.PEPType = "STATE_OWNED_ENTERPRISE"
		rec.SourceCountry = src.country
		if r.chance(0.7) {
			rec.PEPLevel = 3
		}
		rec.OtherInformation = append(rec.OtherInformation, "State ownership "+strconv.Itoa(r.between(25, 100))+"%")
	case record.SourceCriminal:
		rec.Description = []string{pick(r, list("Front company used for money laundering, Company used in a VAT carousel fraud, Criminal organisation, Shell company used in investment fraud"))}
	case record.SourceNonCompliantTaxpayer:
		rec.OtherInformation = append(rec.OtherInformation, "Tax defaulter: settlement of EUR "+strconv.Itoa(r.between(40, 4800)*1000)+" in respect of "+
			pick(r, list("corporation tax, VAT, PAYE/PRSI, relevant contracts tax")))
	case record.SourceOther:
		rec.OtherInformation = append(rec.OtherInformation, pick(r, otherRemarks(src.id)))
	}
}

// domainSlug makes a web domain from the first two words of the first
// Latin-script name of an organisation ("Kish Electronic Co." → kishelectronic).
func domainSlug(name string, aliases []string) string {
	for _, n := range append([]string{name}, aliases...) {
		n = strings.ToLower(asciiFold(n, false))
		if !isASCII(n) {
			continue
		}
		words := strings.FieldsFunc(n, func(c rune) bool { return (c < 'a' || c > 'z') && (c < '0' || c > '9') })
		if len(words) > 2 {
			words = words[:2]
		}
		if s := strings.Join(words, ""); len(s) >= 4 {
			return s
		}
	}
	return ""
}

func topLevelDomain(cc string) string {
	switch cc {
	case "RU", "CN", "AE", "DE", "FR", "IT", "TR", "IR", "IN", "NL", "CH", "AT", "ES", "MX", "BR", "KZ", "BY", "UA":
		return "." + strings.ToLower(cc)
	case "GB":
		return ".co.uk"
	case "HK":
		return ".com.hk"
	}
	return ".com"
}

func hasJurisdiction(st *orgStyle, cc string) bool {
	for _, j := range st.jurisdictions {
		if j.v == cc {
			return true
		}
	}
	return false
}

// soeName names a state-owned enterprise of PEP country cc.
func soeName(r *rng, cc string) string {
	st := orgStyles[pepStyles[cc]]
	if st == nil {
		st = orgStyles["en"]
	}
	return buildOrg(r, st, cc).name
}

func companyNumber(r *rng, cc string) string {
	switch cc {
	case "RU":
		if r.chance(0.5) {
			return "1" + r.digits(12)
		}
		return "77" + r.digits(8)
	case "UA":
		return r.digits(8)
	case "GB":
		if r.chance(0.1) {
			return "SC" + r.digits(6)
		}
		return "0" + r.digits(7)
	case "DE":
		return "HRB " + strconv.Itoa(r.between(1000, 250000))
	case "FR":
		return r.digits(3) + " " + r.digits(3) + " " + r.digits(3)
	case "IT":
		return r.digits(11)
	case "ES":
		return "B" + r.digits(8)
	case "NL":
		return r.digits(8)
	case "CN":
		return "91" + r.digits(6) + "MA" + r.letters(1) + r.digits(6) + r.letters(1)
	case "CY":
		return "HE" + r.digits(6)
	case "AE":
		return "License No. " + r.digits(6)
	case "IR":
		return "1" + r.digits(10)
	case "IN":
		return "U" + r.digits(5) + "MH" + r.digits(4) + "PTC" + r.digits(6)
	}
	return r.digits(7)
}

// offshoreAddresses are registered-agent addresses that thousands of
// offshore companies share, as they do in real lists.
var offshoreAddresses = map[string][]string{
	"VG": {"Trident Chambers, P.O. Box 146, Road Town, Tortola, British Virgin Islands", "Craigmuir Chambers, Road Town, Tortola, British Virgin Islands"},
	"SC": {"Suite 1, Second Floor, Sound & Vision House, Francis Rachel Street, Victoria, Mahé, Seychelles", "Oliaji Trade Centre, Victoria, Mahé, Seychelles"},
	"PA": {"Calle 50, Torre Global Bank, Piso 18, Panama City, Panama", "Edificio Plaza 2000, Calle 50, Panama City, Panama"},
	"MH": {"Trust Company Complex, Ajeltake Road, Ajeltake Island, Majuro, Marshall Islands MH96960"},
	"CY": {"Arch. Makariou III, 195, Neocleous House, 3030 Limassol, Cyprus", "Themistokli Dervi 5, Elenion Building, 1066 Nicosia, Cyprus"},
	"MT": {"Level 3, Tower Business Centre, Tower Street, Swatar, BKR 4013, Malta"},
	"AE": {"Jebel Ali Free Zone, Dubai, United Arab Emirates", "Office 1204, Jumeirah Lake Towers, Dubai, United Arab Emirates", "Hamriyah Free Zone, Sharjah, United Arab Emirates", "SAIF Zone, Sharjah, United Arab Emirates"},
	"HK": {"Room 1502, 15/F, Tower 2, Lippo Centre, 89 Queensway, Admiralty, Hong Kong", "Unit 8, 9/F, Kowloon Bay, Kowloon, Hong Kong"},
}

// countryCulture maps a country to the culture whose addresses it uses.
var countryCulture = map[string]*culture{}

// indexCountryCultures fills countryCulture; people.go calls it once the
// cultures exist.
func indexCountryCultures() {
	for _, k := range []string{"anglo", "german", "french", "italian", "polish", "turkish", "indian", "westafrican", "spanish", "portuguese",
		"russian", "ukrainian", "arabic", "persian", "chinese", "korean"} {
		c := cultures[k]
		for _, e := range c.cities {
			_, cc, _ := strings.Cut(e, "|")
			if _, ok := countryCulture[cc]; !ok {
				countryCulture[cc] = c
			}
		}
	}
}

func orgAddress(r *rng, cc string) string {
	if l, ok := offshoreAddresses[cc]; ok && r.chance(0.7) {
		return pick(r, l)
	}
	if c, ok := countryCulture[cc]; ok {
		city, acc := c.cityFor(r, cc)
		// Companies have offices where people have flats.
		return strings.Replace(c.address(r, city, acc), ", kv. ", ", of. ", 1)
	}
	return cityName(r, cc) + ", " + countryName(cc)
}

// Vessels.
var (
	vesselFirst  = list("SEA, OCEAN, PACIFIC, ATLANTIC, BALTIC, ARCTIC, GOLDEN, SILVER, LUCKY, ROYAL, GRAND, NEW, BLUE, GREAT, NORTHERN, EASTERN, CORAL, PEARL, JASMINE, DARYA, NOOR, HORMUZ, SAHAR, CASPIAN, SUNNY, HAPPY, STAR")
	vesselSecond = list("PRINCESS, STAR, GLORY, FORTUNE, HORIZON, SPIRIT, VOYAGER, PEARL, BREEZE, WAVE, DREAM, LIGHT, QUEEN, HARMONY, VENTURE, EAGLE, DRAGON, PHOENIX, ROSE, LOTUS, LEGEND, NOBLE, MAHAN, KISH, FALCON, PROSPERITY")
	vesselTypes  = list("Crude Oil Tanker, Oil Products Tanker, Chemical/Oil Products Tanker, LPG Tanker, LNG Tanker, General Cargo, Bulk Carrier, Container Ship, Fishing Vessel, Yacht, Tug")
	vesselFlags  = list("Iran, Panama, Cameroon, Comoros, Gabon, Cook Islands, Russia, North Korea, Liberia, Marshall Islands, Sierra Leone, Palau, Togo, Tanzania, Eswatini, Barbados, Sao Tome and Principe, Malta")
	// vesselRegimes are the programmes that list ships.
	vesselRegimes = ws("iran:40 russia:35 dprk:15 syria:5 venezuela:5")
)

// imoNumber makes a seven-digit IMO number with a valid check digit.
func imoNumber(r *rng) string {
	for {
		d := make([]int, 6)
		d[0] = 9
		if r.chance(0.15) {
			d[0] = 8
		}
		for i := 1; i < 6; i++ {
			d[i] = r.IntN(10)
		}
		sum := 0
		for i, v := range d {
			sum += v * (7 - i)
		}
		s := ""
		for _, v := range d {
			s += strconv.Itoa(v)
		}
		s += strconv.Itoa(sum % 10)
		if s != seedIMO {
			return s
		}
	}
}

func vesselName(r *rng) string {
	switch x := r.IntN(100); {
	case x < 60:
		return pick(r, vesselFirst) + " " + pick(r, vesselSecond)
	case x < 80:
		return pick(r, vesselSecond) + " " + pick(r, list("1, 2, 3, I, II, III, VII, 8, 9"))
	case x < 90:
		return pick(r, list("KAPITAN, AKADEMIK, GENERAL, ADMIRAL")) + " " + strings.ToUpper(asciiFold(pick(r, russianSurnames).lat[0], false))
	default:
		return pick(r, vesselFirst) + " " + pick(r, vesselSecond) + " " + pick(r, list("1, 2, 3, II"))
	}
}

func vessel(r *rng, rec *record.Record, src *source) {
	rg := regimes[choose(r, vesselRegimes)]
	rec.Name = vesselName(r)
	imo := "IMO " + imoNumber(r)
	if r.chance(0.4) {
		rec.NameRemarks = []string{imo}
	}
	rec.OtherInformation = []string{imo, "Vessel Type " + pick(r, vesselTypes), "Vessel Flag " + pick(r, vesselFlags)}
	if r.chance(0.6) {
		rec.OtherInformation = append(rec.OtherInformation, "MMSI "+r.digits(9))
	}
	if r.chance(0.4) {
		rec.OtherInformation = append(rec.OtherInformation, "Vessel Year of Build "+strconv.Itoa(r.between(1985, 2020)))
	}
	if r.chance(0.35) {
		rec.AliasNames = appendUnique(rec.AliasNames, vesselName(r), rec.Name)
		rec.OtherInformation = append(rec.OtherInformation, "Former Vessel Flag "+pick(r, vesselFlags))
	}
	if r.chance(0.4) {
		owner := buildOrg(r, orgStyles[choose(r, rg.styles)], "")
		rec.OtherInformation = append(rec.OtherInformation, "Linked To: "+strings.ToUpper(owner.name))
	}
	rec.SanctionDetails = sanctionDetails(r, src, rg)
}

// Aircraft registrations by programme: nationality prefix and whether the
// mark is letters or digits.
var (
	aircraftMarks = map[string][][2]string{
		"iran":      {{"EP-", "L3"}},
		"russia":    {{"RA-", "D5"}},
		"syria":     {{"YK-", "L3"}},
		"belarus":   {{"EW-", "D5"}},
		"dprk":      {{"P-", "D3"}},
		"venezuela": {{"YV", "D4"}},
		"libya":     {{"5A-", "L3"}},
	}
	aircraftRegimes   = ws("iran:45 russia:30 syria:8 belarus:5 dprk:4 venezuela:5 libya:3")
	aircraftModels    = list("Airbus A300B4-605R, Airbus A310-304, Airbus A320-214, Airbus A340-313, Boeing 747-422, Boeing 737-800, Boeing 777-300ER, Ilyushin Il-76TD, Antonov An-124-100, Tupolev Tu-204-100, Sukhoi Superjet 100-95, Bombardier Global 6000, Gulfstream G650, Dassault Falcon 7X, Embraer Legacy 600")
	aircraftOperators = list("Caspian Air Cargo, Persian Gulf Airways, Siberian Cargo Airlines, Eastern Sky Aviation, Volga Air Transport, Arctic Wings, Golden Falcon Aviation, Zagros Air Services, Levant Air Charter, Kish Air Logistics")
)

func aircraft(r *rng, rec *record.Record, src *source) {
	key := choose(r, aircraftRegimes)
	rg := regimes[key]
	mark := pick(r, aircraftMarks[key])
	n, _ := strconv.Atoi(mark[1][1:])
	tail := mark[0]
	if mark[1][0] == 'L' {
		tail += r.letters(n)
	} else {
		tail += r.digits(n)
	}
	model := pick(r, aircraftModels)
	rec.Name = tail
	if r.chance(0.25) {
		rec.Name = model + " (" + tail + ")"
		rec.AliasNames = []string{tail}
	}
	rec.OtherInformation = []string{"Aircraft Model " + model,
		"Aircraft Manufacturer's Serial Number (MSN) " + strconv.Itoa(r.between(100, 39999)),
		"Aircraft Manufacture Date " + dob(r, r.between(1980, 2018))}
	if r.chance(0.7) {
		rec.OtherInformation = append(rec.OtherInformation, "Aircraft Operator "+pick(r, aircraftOperators))
	}
	if r.chance(0.2) {
		rec.OtherInformation = append(rec.OtherInformation, "Previous Aircraft Tail Number "+pick(r, list("UP-, 9K-, EX-, TC-, 4L-"))+r.letters(3))
	}
	rec.SanctionDetails = sanctionDetails(r, src, rg)
}

// Sanctioned territories, each with the other names lists use for it.
var territories = []struct {
	regime string
	names  []string
}{
	{"ukraine", []string{"Crimea region of Ukraine", "Autonomous Republic of Crimea", "Крым", "Crimea"}},
	{"ukraine", []string{"City of Sevastopol", "Sevastopol", "Севастополь"}},
	{"ukraine", []string{"so-called Donetsk People's Republic", "Donetsk People's Republic", "DNR", "Донецкая Народная Республика"}},
	{"ukraine", []string{"so-called Luhansk People's Republic", "Luhansk People's Republic", "LNR", "Луганская Народная Республика"}},
	{"russia", []string{"Occupied Zaporizhzhia region", "Zaporizhzhia Oblast (temporarily occupied)", "Запорожская область"}},
	{"russia", []string{"Occupied Kherson region", "Kherson Oblast (temporarily occupied)", "Херсонская область"}},
	{"russia", []string{"Abkhazia", "Republic of Abkhazia", "Абхазия"}},
	{"russia", []string{"South Ossetia", "Tskhinvali region", "Южная Осетия"}},
	{"russia", []string{"Transnistria", "Pridnestrovian Moldavian Republic", "Приднестровье"}},
	{"iran", []string{"Islamic Republic of Iran", "Iran", "جمهوری اسلامی ایران"}},
	{"dprk", []string{"Democratic People's Republic of Korea", "North Korea", "DPRK", "조선민주주의인민공화국"}},
	{"syria", []string{"Syrian Arab Republic", "Syria", "الجمهورية العربية السورية"}},
	{"cuba", []string{"Republic of Cuba", "Cuba"}},
}

func jurisdiction(r *rng, rec *record.Record, src *source) {
	t := pick(r, territories)
	rec.Name = t.names[0]
	for _, a := range t.names[1:] {
		if r.chance(0.7) {
			rec.AliasNames = append(rec.AliasNames, a)
		}
	}
	rec.OtherInformation = []string{pick(r, list("Comprehensive territorial sanctions, Import and export ban, Investment ban, Territory subject to sectoral restrictions"))}
	rec.SanctionDetails = sanctionDetails(r, src, regimes[t.regime])
}

const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func object(r *rng, rec *record.Record, src *source) {
	rg := regimes[pick(r, []string{"russia", "cyber", "dprk", "iran", "narcotics"})]
	switch x := r.IntN(100); {
	case x < 45:
		b := make([]byte, 33)
		for i := range b {
			b[i] = base58[r.IntN(len(base58))]
		}
		rec.Name = "XBT 1" + string(b)
		rec.OtherInformation = []string{"Digital Currency Address - XBT"}
	case x < 70:
		h := make([]byte, 40)
		for i := range h {
			h[i] = "0123456789abcdef"[r.IntN(16)]
		}
		rec.Name = "ETH 0x" + string(h)
		rec.OtherInformation = []string{"Digital Currency Address - ETH"}
	case x < 85:
		b := make([]byte, 33)
		for i := range b {
			b[i] = base58[r.IntN(len(base58))]
		}
		rec.Name = "USDT T" + string(b)
		rec.OtherInformation = []string{"Digital Currency Address - USDT (TRC-20)"}
	default:
		rec.Name = pick(r, list("Motor vehicle, Armoured vehicle, Yacht tender, Helicopter")) + " registration " + r.letters(1) + r.digits(3) + r.letters(2)
		rec.OtherInformation = []string{"Vehicle"}
	}
	if r.chance(0.5) {
		c := cultures[choose(r, rg.cultures)]
		rec.OtherInformation = append(rec.OtherInformation, "Linked To: "+strings.ToUpper(c.name(r, false).name))
	}
	rec.SanctionDetails = sanctionDetails(r, src, rg)
}

// unknown fills a record whose source did not say what it lists: a bare
// name of a person or an organisation.
func unknown(r *rng, rec *record.Record, src *source, rg *regime) {
	if r.chance(0.5) {
		cults := globalCultures
		if rg != nil {
			cults = rg.cultures
		}
		n := cultures[choose(r, cults)].name(r, r.chance(0.2))
		rec.Name, rec.TLName, rec.AliasNames = n.name, n.tl, n.aliases
	} else {
		styles := globalStyles
		if rg != nil {
			styles = rg.styles
		}
		n := buildOrg(r, orgStyles[choose(r, styles)], "")
		rec.Name, rec.TLName, rec.AliasNames = n.name, n.tl, n.aliases
	}
	switch rec.SourceType {
	case record.SourceSanction:
		rec.SanctionDetails = sanctionDetails(r, src, rg)
	case record.SourceOther:
		rec.OtherInformation = []string{pick(r, otherRemarks(src.id))}
	}
}
