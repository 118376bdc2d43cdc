package gen

import (
	"strconv"
	"strings"

	"github.com/amlscreen/amlscreen/record"
)

// source is one list the generator draws records from: its catalogue entry
// and what its records look like.
type source struct {
	id      string
	typ     string // record source type, upper case
	weight  int    // share within its source type
	country string // PEP sources: the country whose officials it lists
	// cultures of the people it lists, unless a sanction regime decides.
	cultures []weighted[string]
	// citizenship overrides the culture's countries (a tax authority lists
	// its own residents).
	citizenship []weighted[string]
	family      string // how sanction_details are worded: ofac, eu, un, ...
	regimes     []weighted[string]
	cat         record.Source
}

// globalCultures is the mix of names on international lists.
var globalCultures = ws("anglo:8 german:3 french:3 italian:3 polish:2 turkish:4 indian:5 westafrican:6 spanish:12 portuguese:3 russian:18 ukrainian:5 arabic:15 persian:6 chinese:8 korean:3")

var sources = []*source{
	{id: "us_ofac_sdn", typ: record.SourceSanction, weight: 30, family: "ofac",
		regimes: ws("russia:22 ukraine:6 terrorism:18 iran:12 syria:5 dprk:5 venezuela:4 narcotics:14 cyber:3 humanrights:3 proliferation:5 iraq:2 libya:1"),
		cat: record.Source{Name: "OFAC Specially Designated Nationals (SDN) List",
			Description: "Individuals and companies owned or controlled by, or acting for or on behalf of, targeted countries, and individuals, groups and entities designated under programs that are not country-specific.",
			Link:        "https://sanctionssearch.ofac.treas.gov/", Region: "americas", CountryCode: "us", CountryName: "United States",
			IssuerName: "U.S. Department of the Treasury, Office of Foreign Assets Control"}},
	{id: "us_ofac_cons", typ: record.SourceSanction, weight: 4, family: "ofac",
		regimes: ws("russia:55 iran:15 proliferation:15 cyber:5 terrorism:10"),
		cat: record.Source{Name: "OFAC Consolidated Sanctions List (Non-SDN)",
			Description: "Non-SDN lists of OFAC: Sectoral Sanctions Identifications, Foreign Sanctions Evaders, Non-SDN Menu-Based Sanctions and others.",
			Link:        "https://ofac.treasury.gov/consolidated-sanctions-list-non-sdn-lists", Region: "americas", CountryCode: "us", CountryName: "United States",
			IssuerName: "U.S. Department of the Treasury, Office of Foreign Assets Control"}},
	{id: "eu_fsf", typ: record.SourceSanction, weight: 14, family: "eu",
		regimes: ws("russia:45 ukraine:10 syria:12 belarus:10 terrorism:6 iran:7 libya:4 humanrights:3 cyber:2 venezuela:1"),
		cat: record.Source{Name: "EU Financial Sanctions Files (FSF)",
			Description: "Consolidated list of persons, groups and entities subject to EU financial sanctions.",
			Link:        "https://data.europa.eu/data/datasets/consolidated-list-of-persons-groups-and-entities-subject-to-eu-financial-sanctions",
			Region:      "emea", CountryCode: "eu", CountryName: "European Union", IssuerName: "European Commission, DG FISMA"}},
	{id: "un_sc_sanctions", typ: record.SourceSanction, weight: 6, family: "un",
		regimes: ws("terrorism:65 dprk:15 libya:8 iraq:10 proliferation:2"),
		cat: record.Source{Name: "UN Security Council Consolidated List",
			Description: "All individuals and entities subject to measures imposed by the United Nations Security Council.",
			Link:        "https://www.un.org/securitycouncil/content/un-sc-consolidated-list", Region: "international",
			IssuerName: "United Nations Security Council"}},
	{id: "gb_hmt_sanctions", typ: record.SourceSanction, weight: 12, family: "uk",
		regimes: ws("russia:50 terrorism:12 syria:8 belarus:5 humanrights:7 iran:8 cyber:4 dprk:3 libya:2 venezuela:1"),
		cat: record.Source{Name: "UK Sanctions List",
			Description: "Persons designated or ships specified under UK sanctions regulations made under the Sanctions and Anti-Money Laundering Act 2018.",
			Link:        "https://www.gov.uk/government/publications/the-uk-sanctions-list", Region: "emea", CountryCode: "gb", CountryName: "United Kingdom",
			IssuerName: "HM Treasury, Office of Financial Sanctions Implementation"}},
	{id: "ch_seco_sanctions", typ: record.SourceSanction, weight: 6, family: "ch",
		regimes: ws("russia:55 ukraine:8 syria:10 belarus:10 iran:8 libya:5 terrorism:4"),
		cat: record.Source{Name: "Swiss SECO Sanctions",
			Description: "Persons, entities and organisations subject to Swiss sanctions under the Embargo Act.",
			Link:        "https://www.sesam.search.admin.ch/", Region: "emea", CountryCode: "ch", CountryName: "Switzerland",
			IssuerName: "State Secretariat for Economic Affairs (SECO)"}},
	{id: "ca_dfatd_sema", typ: record.SourceSanction, weight: 6, family: "ca",
		regimes: ws("russia:55 ukraine:10 belarus:7 iran:12 venezuela:8 humanrights:8"),
		cat: record.Source{Name: "Canada Consolidated Autonomous Sanctions List",
			Description: "Individuals and entities listed under the Special Economic Measures Act and the Justice for Victims of Corrupt Foreign Officials Act.",
			Link:        "https://www.international.gc.ca/world-monde/international_relations-relations_internationales/sanctions/consolidated-consolide.aspx",
			Region:      "americas", CountryCode: "ca", CountryName: "Canada", IssuerName: "Global Affairs Canada"}},
	{id: "au_dfat_sanctions", typ: record.SourceSanction, weight: 5, family: "au",
		regimes: ws("russia:55 ukraine:6 dprk:10 iran:10 syria:8 terrorism:8 libya:3"),
		cat: record.Source{Name: "Australia DFAT Consolidated List",
			Description: "Persons and entities subject to targeted financial sanctions or travel bans under Australian sanctions laws.",
			Link:        "https://www.dfat.gov.au/international-relations/security/sanctions/consolidated-list", Region: "apac",
			CountryCode: "au", CountryName: "Australia", IssuerName: "Department of Foreign Affairs and Trade"}},
	{id: "jp_mof_sanctions", typ: record.SourceSanction, weight: 4, family: "jp",
		regimes: ws("russia:65 ukraine:5 dprk:20 terrorism:10"),
		cat: record.Source{Name: "Japan MOF Economic Sanctions List",
			Description: "Persons subject to asset freezes under the Foreign Exchange and Foreign Trade Act.",
			Link:        "https://www.mof.go.jp/policy/international_policy/gaitame_kawase/gaitame/economic_sanctions/list.html", Region: "apac",
			CountryCode: "jp", CountryName: "Japan", IssuerName: "Ministry of Finance Japan"}},
	{id: "ua_nsdc_sanctions", typ: record.SourceSanction, weight: 13, family: "ua",
		regimes: ws("russia:75 ukraine:10 belarus:8 iran:5 proliferation:2"),
		cat: record.Source{Name: "Ukraine NSDC Sanctions",
			Description: "Individuals and legal entities subject to special economic and other restrictive measures by decision of the National Security and Defense Council of Ukraine.",
			Link:        "https://sanctions.nazk.gov.ua/", Region: "emea", CountryCode: "ua", CountryName: "Ukraine",
			IssuerName: "National Security and Defense Council of Ukraine"}},

	pep("pep_gb", "GB", 8, "anglo:90 indian:6 westafrican:4", "https://members.parliament.uk/"),
	pep("pep_us", "US", 10, "anglo:85 spanish:10 indian:5", "https://bioguide.congress.gov/"),
	pep("pep_de", "DE", 8, "german:90 turkish:6 polish:4", "https://www.bundestag.de/abgeordnete"),
	pep("pep_fr", "FR", 8, "french:90 arabic:6 portuguese:4", "https://www.assemblee-nationale.fr/dyn/vos-deputes"),
	pep("pep_it", "IT", 6, "italian:100", "https://www.camera.it/leg19/28"),
	pep("pep_br", "BR", 8, "portuguese:100", "https://www.camara.leg.br/deputados/quem-sao"),
	pep("pep_tr", "TR", 5, "turkish:100", "https://www.tbmm.gov.tr/milletvekilleri"),
	pep("pep_ru", "RU", 12, "russian:100", "http://duma.gov.ru/duma/deputies/"),
	pep("pep_ua", "UA", 10, "ukrainian:85 russian:15", "https://www.rada.gov.ua/"),
	pep("pep_ae", "AE", 3, "arabic:100", "https://www.almajles.gov.ae/"),
	pep("pep_cn", "CN", 8, "chinese:100", "http://www.npc.gov.cn/"),
	pep("pep_kr", "KR", 4, "korean_south:100", "https://www.assembly.go.kr/"),
	pep("pep_ng", "NG", 6, "westafrican:100", "https://nass.gov.ng/"),
	pep("pep_in", "IN", 8, "indian:100", "https://sansad.in/ls/members"),

	{id: "interpol_red_notices", typ: record.SourceCriminal, weight: 60, cultures: globalCultures,
		cat: record.Source{Name: "INTERPOL Red Notices (public extracts)",
			Description: "Persons wanted by national jurisdictions for prosecution or to serve a sentence, as published by INTERPOL.",
			Link:        "https://www.interpol.int/How-we-work/Notices/Red-Notices/View-Red-Notices", Region: "international", IssuerName: "INTERPOL"}},
	{id: "us_fbi_most_wanted", typ: record.SourceCriminal, weight: 15,
		cultures: ws("anglo:40 spanish:25 russian:10 chinese:10 arabic:5 indian:5 westafrican:5"),
		cat: record.Source{Name: "FBI Most Wanted", Description: "Fugitives and persons sought by the Federal Bureau of Investigation.",
			Link: "https://www.fbi.gov/wanted", Region: "americas", CountryCode: "us", CountryName: "United States", IssuerName: "Federal Bureau of Investigation"}},
	{id: "eu_most_wanted", typ: record.SourceCriminal, weight: 25,
		cultures: ws("italian:15 german:10 french:10 polish:15 turkish:10 russian:10 arabic:10 anglo:5 spanish:10 westafrican:5"),
		cat: record.Source{Name: "Europe's Most Wanted Fugitives", Description: "Fugitives wanted by the member states of the European Union for serious crimes.",
			Link: "https://eumostwanted.eu/", Region: "emea", CountryCode: "eu", CountryName: "European Union", IssuerName: "Europol, ENFAST"}},

	{id: "ie_revenue_tax_defaulters", typ: record.SourceNonCompliantTaxpayer, weight: 100,
		cultures: ws("anglo:92 polish:4 indian:4"), citizenship: ws("IE:100"),
		cat: record.Source{Name: "Ireland Revenue List of Tax Defaulters",
			Description: "Persons with whom the Revenue Commissioners made settlements or on whom fines or penalties were imposed, published quarterly.",
			Link:        "https://www.revenue.ie/en/corporate/press-office/list-of-tax-defaulters/index.aspx", Region: "emea",
			CountryCode: "ie", CountryName: "Ireland", IssuerName: "Office of the Revenue Commissioners"}},

	{id: "ext_world_bank_debarred", typ: record.SourceOther, weight: 50,
		cultures: ws("westafrican:20 indian:20 spanish:15 chinese:15 arabic:10 anglo:10 french:10"),
		cat: record.Source{Name: "World Bank Debarred Firms and Individuals",
			Description: "Firms and individuals ineligible to be awarded World Bank-financed contracts.",
			Link:        "https://www.worldbank.org/en/projects-operations/procurement/debarred-firms", Region: "international", IssuerName: "World Bank Group"}},
	{id: "ext_icij_leaks", typ: record.SourceOther, weight: 50,
		cultures: ws("russian:20 chinese:15 anglo:15 spanish:15 portuguese:8 arabic:10 german:5 italian:5 ukrainian:7"),
		cat: record.Source{Name: "ICIJ Offshore Leaks Database",
			Description: "Officers and intermediaries of offshore entities from the Panama Papers, Paradise Papers, Pandora Papers and Offshore Leaks investigations.",
			Link:        "https://offshoreleaks.icij.org/", Region: "international", IssuerName: "International Consortium of Investigative Journalists"}},
}

func pep(id, cc string, weight int, cults, link string) *source {
	return &source{id: id, typ: record.SourcePEP, weight: weight, country: cc, cultures: ws(cults),
		cat: record.Source{Name: countryName(cc) + " Politically Exposed Persons",
			Description: "Members of parliament and government, senior judiciary, military, diplomatic and central bank officials and executives of state-owned enterprises of " +
				countryName(cc) + ", with their relatives and close associates.",
			Link: link, Region: regionOf(cc), CountryCode: strings.ToLower(cc), CountryName: countryName(cc),
			IssuerName: "Compiled from official publications of " + countryName(cc)}}
}

func regionOf(cc string) string {
	switch cc {
	case "US", "BR", "CA", "MX":
		return "americas"
	case "CN", "KR", "IN", "JP", "AU":
		return "apac"
	}
	return "emea"
}

// sourcesByTyp groups the sources by record source type, weighted.
var sourcesByTyp = map[string][]weighted[*source]{}

func init() {
	for _, s := range sources {
		s.cat.Source = s.id
		s.cat.SourceType = strings.ToLower(s.typ)
		sourcesByTyp[s.typ] = append(sourcesByTyp[s.typ], weighted[*source]{s.weight, s})
	}
}

// Sources returns the catalogue entry of every source the generator uses,
// in a fixed order. Sizes are left 0: they depend on how many records are
// generated (WriteCounts reports them).
func Sources() []record.Source {
	out := make([]record.Source, len(sources))
	for i, s := range sources {
		out[i] = s.cat
	}
	return out
}

// regime is a sanctions programme: who it targets and how lists word it.
type regime struct {
	key         string
	display     string
	ofac        []string
	eu, un, uk  string
	cultures    []weighted[string]
	countries   []weighted[string]
	styles      []weighted[string] // company styles of its entities
	occupations []string
	remarks     []string
}

var regimes = map[string]*regime{}

func init() {
	for _, rg := range []*regime{
		{key: "russia", display: "Russia", ofac: list("RUSSIA-EO14024, RUSSIA-EO14024, UKRAINE-EO13661, UKRAINE-EO13662, CAATSA - RUSSIA, RUSSIA-EO14071"),
			eu: "Council Regulation (EU) No 269/2014 (Ukraine territorial integrity)", uk: "Russia",
			cultures:    ws("russian:85 ukrainian:5 german:2 turkish:2 arabic:2 chinese:2 indian:2"),
			styles:      ws("ru:55 en:15 ae:10 cn:5 de:5 tr:5 nordic:2 nl:3"),
			occupations: list("Businessman, Member of the State Duma, Member of the Federation Council, Deputy Minister of Defence, Chief Executive Officer, Governor, Television presenter, Commander of a military unit"),
			remarks:     list("Additional Sanctions Information - Subject to Secondary Sanctions, Associated with the Government of the Russian Federation, Operating in the defence sector of the Russian Federation economy, Acting on behalf of a sanctioned person")},
		{key: "ukraine", display: "Ukraine territorial integrity", ofac: list("UKRAINE-EO13660, UKRAINE-EO13685"),
			eu: "Council Regulation (EU) No 269/2014 (Ukraine territorial integrity)", uk: "Russia",
			cultures: ws("russian:60 ukrainian:40"), countries: ws("RU:50 UA:50"), styles: ws("ru:100"),
			occupations: list("Self-proclaimed 'Prime Minister' of the so-called 'Donetsk People's Republic', Commander of a separatist armed group, Member of the so-called 'People's Council', Head of the occupation administration"),
			remarks:     list("Responsible for actions undermining the territorial integrity of Ukraine, Active in the illegally annexed Crimea")},
		{key: "belarus", display: "Belarus", ofac: list("BELARUS-EO14038, BELARUS"),
			eu: "Council Regulation (EC) No 765/2006 (Belarus)", uk: "Belarus",
			cultures: ws("russian:100"), countries: ws("BY:100"), styles: ws("ru:100"),
			occupations: list("Member of the Central Election Commission, Judge, Head of a regional KGB department, Commander of OMON"),
			remarks:     list("Responsible for the repression of civil society in Belarus")},
		{key: "terrorism", display: "Counter-terrorism", ofac: list("SDGT, SDGT, FTO"),
			eu: "Council Regulation (EC) No 881/2002 (ISIL/Da'esh and Al-Qaida)", un: "ISIL (Da'esh) and Al-Qaida Sanctions List", uk: "Counter-Terrorism (International)",
			cultures:    ws("arabic:55 westafrican:12 indian:12 persian:4 turkish:5 anglo:4 french:4"),
			styles:      ws("ar:80 en:10 tr:5 fr:5"),
			occupations: list("Financier, Religious leader, Military commander, Facilitator, Recruiter"),
			remarks:     list("Associated with Al-Qaida, Associated with ISIL (Da'esh), Associated with Al-Shabaab, Associated with Boko Haram, Associated with Lashkar-e-Tayyiba, Associated with Hizballah")},
		{key: "iran", display: "Iran", ofac: list("IRAN, IRAN-EO13846, IRGC, IFSR, IRAN-HR"),
			eu: "Council Regulation (EU) No 267/2012 (Iran)", uk: "Iran (Nuclear)",
			cultures: ws("persian:90 arabic:10"), styles: ws("ir:70 ae:20 en:5 cn:5"),
			occupations: list("IRGC commander, Official of the Ministry of Intelligence, Director of a nuclear facility, Oil trader"),
			remarks:     list("Linked To: ISLAMIC REVOLUTIONARY GUARD CORPS, Linked To: NATIONAL IRANIAN OIL COMPANY, Additional Sanctions Information - Subject to Secondary Sanctions")},
		{key: "syria", display: "Syria", ofac: list("SYRIA, SYRIA-EO13894, SYRIA-CAESAR"),
			eu: "Council Regulation (EU) No 36/2012 (Syria)", uk: "Syria",
			cultures: ws("arabic:100"), countries: ws("SY:100"), styles: ws("ar:100"),
			occupations: list("Brigadier General, Minister, Businessman, Head of an intelligence branch"),
			remarks:     list("Associated with the former Assad regime, Involved in the production of Captagon")},
		{key: "dprk", display: "DPRK", ofac: list("DPRK, DPRK2, DPRK3, DPRK4, NPWMD"),
			eu: "Council Regulation (EU) 2017/1509 (DPRK)", un: "DPRK (Resolution 1718)", uk: "North Korea",
			cultures: ws("korean:100"), countries: ws("KP:100"), styles: ws("kp:90 cn:10"),
			occupations: list("Trading company representative, Reconnaissance General Bureau officer, Diplomat, Bank representative"),
			remarks:     list("Linked To: RECONNAISSANCE GENERAL BUREAU, Involved in WMD procurement")},
		{key: "venezuela", display: "Venezuela", ofac: list("VENEZUELA, VENEZUELA-EO13850, VENEZUELA-EO13884"),
			eu: "Council Regulation (EU) 2017/2063 (Venezuela)", uk: "Venezuela",
			cultures: ws("spanish:100"), countries: ws("VE:100"), styles: ws("es:100"),
			occupations: list("Member of the National Constituent Assembly, Governor, Army General, Minister"),
			remarks:     list("Official of the Government of Venezuela")},
		{key: "narcotics", display: "Narcotics trafficking", ofac: list("SDNTK, SDNT, ILLICIT-DRUGS-EO14059, TCO"),
			cultures: ws("spanish:65 chinese:8 turkish:5 anglo:8 westafrican:4 italian:6 indian:4"), styles: ws("es:80 cn:10 en:10"),
			occupations: list("Drug trafficker, Money launderer, Plaza boss"),
			remarks:     list("Member of the Sinaloa Cartel, Member of the Cartel de Jalisco Nueva Generación, Linked to a money laundering network, Member of the Clan del Golfo")},
		{key: "cyber", display: "Malicious cyber activity", ofac: list("CYBER2, CYBER3, CYBER4"),
			eu: "Council Regulation (EU) 2019/796 (cyber-attacks)", uk: "Cyber",
			cultures: ws("russian:60 chinese:15 persian:10 korean:15"), styles: ws("ru:40 cn:30 ir:20 kp:10"),
			occupations: list("Officer of a military intelligence unit, Software developer, Ransomware operator, Cryptocurrency exchange operator"),
			remarks:     list("Associated with a ransomware group, Involved in cyber-enabled activities")},
		{key: "humanrights", display: "Global human rights", ofac: list("GLOMAG"),
			eu: "Council Regulation (EU) 2020/1998 (human rights)", uk: "Global Human Rights",
			cultures: ws("russian:30 chinese:20 arabic:15 westafrican:15 spanish:10 persian:10"), styles: ws("en:30 ru:20 cn:20 es:15 ar:15"),
			occupations: list("Prison director, Police chief, Judge, Security official"),
			remarks:     list("Responsible for serious human rights abuse")},
		{key: "libya", display: "Libya", ofac: list("LIBYA2, LIBYA3"),
			eu: "Council Regulation (EU) 2016/44 (Libya)", un: "Libya (Resolution 1970)", uk: "Libya",
			cultures: ws("arabic:100"), countries: ws("LY:100"), styles: ws("ar:100"),
			occupations: list("Militia commander, Member of the former Qadhafi government"),
			remarks:     list("Involved in the smuggling of migrants, Involved in illicit petroleum exports")},
		{key: "iraq", display: "Iraq", ofac: list("IRAQ2, IRAQ3"),
			eu: "Council Regulation (EC) No 1210/2003 (Iraq)", un: "Iraq (Resolution 1518)", uk: "Iraq",
			cultures: ws("arabic:100"), countries: ws("IQ:100"), styles: ws("ar:100"),
			occupations: list("Former senior official of the Ba'ath regime, Former intelligence officer"),
			remarks:     list("Former regime official")},
		{key: "cuba", display: "Cuba", ofac: list("CUBA"), eu: "", uk: "",
			cultures: ws("spanish:100"), styles: ws("es:100")},
		{key: "proliferation", display: "Non-proliferation", ofac: list("NPWMD, IFSR"),
			eu: "Council Regulation (EU) 2023/1529 (Iran military drones)", un: "Iran (Resolution 2231)", uk: "Non-proliferation",
			cultures: ws("persian:40 chinese:35 korean:15 russian:10"), styles: ws("cn:40 ir:30 ru:20 ae:10"),
			occupations: list("Procurement agent, Engineer, Trading company director"),
			remarks:     list("Supplied components for unmanned aerial vehicles, Involved in ballistic missile procurement")},
	} {
		regimes[rg.key] = rg
	}
}

// sanctionDetails words the regime the way src's issuer does.
func sanctionDetails(r *rng, src *source, rg *regime) []string {
	if rg == nil {
		return nil
	}
	switch src.family {
	case "ofac":
		out := []string{pick(r, rg.ofac)}
		if r.chance(0.25) {
			out = appendUnique(out, pick(r, rg.ofac))
		}
		return out
	case "eu":
		if rg.eu == "" {
			return []string{"Common Foreign and Security Policy: " + rg.display}
		}
		return []string{rg.eu, pick(r, list("Asset freeze, Asset freeze and travel ban"))}
	case "un":
		if rg.un == "" {
			return []string{"United Nations Security Council: " + rg.display}
		}
		return []string{rg.un}
	case "uk":
		regimeName := rg.uk
		if regimeName == "" {
			regimeName = rg.display
		}
		return []string{"UK Sanctions List: " + regimeName, pick(r, list("Asset freeze, Asset freeze; Travel ban, Asset freeze; Trust services sanctions"))}
	case "ch":
		return []string{"Ordinance on measures against " + rg.display + " (SECO)"}
	case "ca":
		return []string{"Special Economic Measures Act: " + rg.display}
	case "au":
		return []string{"Autonomous Sanctions Regulations 2011: " + rg.display}
	case "jp":
		return []string{"Foreign Exchange and Foreign Trade Act: " + rg.display}
	case "ua":
		year := r.between(2014, 2026)
		return []string{"Decree of the President of Ukraine No. " + strconv.Itoa(r.between(1, 899)) + "/" + strconv.Itoa(year),
			"NSDC decision: blocking of assets; " + rg.display}
	}
	return []string{rg.display}
}

// legislatures names the parliament members of each PEP country sit in.
var legislatures = map[string][]string{
	"GB": {"House of Commons", "House of Lords"}, "US": {"House of Representatives", "Senate"},
	"DE": {"Bundestag", "Landtag of Bavaria"}, "FR": {"Assemblée nationale", "Sénat"},
	"IT": {"Camera dei Deputati", "Senato della Repubblica"}, "BR": {"Câmara dos Deputados", "Senado Federal"},
	"TR": {"Grand National Assembly"}, "RU": {"State Duma", "Federation Council"}, "UA": {"Verkhovna Rada"},
	"AE": {"Federal National Council"}, "CN": {"National People's Congress", "Chinese People's Political Consultative Conference"},
	"KR": {"National Assembly"}, "NG": {"House of Representatives", "Senate"}, "IN": {"Lok Sabha", "Rajya Sabha"},
}

var parties = map[string][]string{
	"GB": {"Conservative Party", "Labour Party", "Liberal Democrats", "Scottish National Party"},
	"US": {"Democratic Party", "Republican Party"},
	"DE": {"CDU", "SPD", "Bündnis 90/Die Grünen", "FDP", "CSU", "Die Linke"},
	"FR": {"Renaissance", "Les Républicains", "Parti socialiste", "Rassemblement national", "La France insoumise"},
	"IT": {"Fratelli d'Italia", "Partito Democratico", "Lega", "Forza Italia", "Movimento 5 Stelle"},
	"BR": {"Partido dos Trabalhadores", "Partido Liberal", "União Brasil", "MDB"},
	"TR": {"AK Parti", "CHP", "MHP", "İYİ Parti"},
	"RU": {"United Russia", "LDPR", "Communist Party of the Russian Federation", "Единая Россия"},
	"UA": {"Servant of the People", "European Solidarity", "Batkivshchyna"},
	"CN": {"Chinese Communist Party"},
	"KR": {"Democratic Party of Korea", "People Power Party"},
	"NG": {"All Progressives Congress", "Peoples Democratic Party", "Labour Party"},
	"IN": {"Bharatiya Janata Party", "Indian National Congress", "Aam Aadmi Party"},
}

var ministries = list("Finance, Defence, Foreign Affairs, the Interior, Energy, Justice, Health, Transport, Agriculture, Economic Development, Industry and Trade, Natural Resources, Education")

// pepRole is one kind of public function with its pep_type and level.
type pepRole struct {
	typ   string
	level int32
	title func(r *rng, cc string) string
}

func fixed(s string) func(*rng, string) string { return func(*rng, string) string { return s } }

var pepRoles = []weighted[pepRole]{
	{6, pepRole{"POLITICIAN", 1, func(r *rng, cc string) string { return "Minister of " + pick(r, ministries) }}},
	{1, pepRole{"POLITICIAN", 1, func(r *rng, cc string) string { return "Speaker of the " + legislatures[cc][0] }}},
	{22, pepRole{"POLITICIAN", 2, func(r *rng, cc string) string { return "Member of the " + pick(r, legislatures[cc]) }}},
	{5, pepRole{"POLITICIAN", 2, func(r *rng, cc string) string { return "Deputy Minister of " + pick(r, ministries) }}},
	{6, pepRole{"POLITICIAN", 3, func(r *rng, cc string) string { return regionHead(cc) + " " + regionName(r, cc) }}},
	{5, pepRole{"POLITICIAN", 3, func(r *rng, cc string) string { return "Mayor of " + cityName(r, cc) }}},
	{4, pepRole{"POLITICIAN", 4, func(r *rng, cc string) string { return "Member of the " + cityName(r, cc) + " City Council" }}},
	{15, pepRole{"RELATIVES_AND_CLOSE_ASSOCIATES", 0, nil}},
	{3, pepRole{"JUDGE", 2, fixed("Judge of the Supreme Court")}},
	{1, pepRole{"JUDGE", 2, fixed("Judge of the Constitutional Court")}},
	{2, pepRole{"JUDGE", 4, func(r *rng, cc string) string { return "Judge of the Regional Court of " + cityName(r, cc) }}},
	{1, pepRole{"BOARD_MEMBER_OF_CENTRAL_BANK", 2, func(r *rng, cc string) string { return "Member of the Board, Central Bank of " + countryName(cc) }}},
	{1, pepRole{"EXECUTIVE_AUDITOR", 2, fixed("Member of the Court of Audit")}},
	{2, pepRole{"ADMINISTRATION_OFFICE_EXECUTIVE", 2, fixed("Chief of Staff to the Head of Government")}},
	{3, pepRole{"ADMINISTRATION_OFFICE_EXECUTIVE", 3, func(r *rng, cc string) string { return "Director-General, Ministry of " + pick(r, ministries) }}},
	{1, pepRole{"MILITARY_OFFICIAL", 1, fixed("Chief of the General Staff of the Armed Forces")}},
	{4, pepRole{"MILITARY_OFFICIAL", 2, func(r *rng, cc string) string {
		return pick(r, list("Major General, Lieutenant General, Rear Admiral")) + ", Armed Forces"
	}}},
	{3, pepRole{"EMBASSY_OFFICIAL", 2, func(r *rng, cc string) string {
		return "Ambassador to " + countryName(pick(r, list("FR, DE, US, CN, RU, GB, JP, IN, BR, TR, AE, NG")))
	}}},
	{1, pepRole{"EMBASSY_OFFICIAL", 3, func(r *rng, cc string) string {
		return "Consul General in " + pick(r, list("Frankfurt, Istanbul, Dubai, Shanghai, Milan, Houston, Mumbai"))
	}}},
	{2, pepRole{"INTERNATIONAL_ORGANIZATION_OFFICIAL", 2, func(r *rng, cc string) string {
		return pick(r, list("Permanent Representative to the United Nations, Executive Director at the International Monetary Fund, Director at the World Bank"))
	}}},
	{6, pepRole{"BOARD_MEMBER_OF_STATE_OWNED_ENTERPRISE", 3, func(r *rng, cc string) string {
		return pick(r, list("Chairman of the Board, Member of the Supervisory Board, Chief Executive Officer")) + ", " + soeName(r, cc)
	}}},
	{3, pepRole{"PROSECUTION_OFFICIAL", 2, fixed("Deputy Prosecutor General")}},
	{1, pepRole{"PROSECUTION_OFFICIAL", 4, func(r *rng, cc string) string { return "Prosecutor of " + regionName(r, cc) }}},
	{4, pepRole{"AGENCY_OFFICIAL", 2, func(r *rng, cc string) string {
		return "Head of the " + pick(r, list("Tax Service, Customs Service, Financial Intelligence Unit, Anti-Monopoly Service, Migration Service"))
	}}},
	{1, pepRole{"OTHER", 3, fixed("Senior party official")}},
}

// cityName and regionName give places of a PEP country.
func cityName(r *rng, cc string) string {
	if l := citiesByCountry[cc]; len(l) > 0 {
		return pick(r, l)
	}
	return countryName(cc)
}

// citiesByCountry indexes the culture pools by country, built once in a
// fixed order so that generation stays deterministic.
var citiesByCountry = map[string][]string{}

func init() {
	for _, l := range [][]string{citiesAnglo, citiesGerman, citiesFrench, citiesItalian, citiesPolish, citiesTurkish, citiesIndian,
		citiesWestAfrican, citiesSpanish, citiesPortuguese, citiesRussian, citiesUkrainian, citiesArabic, citiesPersian, citiesChinese, citiesKorean} {
		for _, e := range l {
			city, cc, _ := strings.Cut(e, "|")
			citiesByCountry[cc] = appendUnique(citiesByCountry[cc], city)
		}
	}
}

var regionsByCountry = map[string][]string{
	"RU": list("Sverdlovsk Oblast, Krasnodar Krai, Tyumen Oblast, the Republic of Tatarstan, Primorsky Krai, Moscow Oblast"),
	"UA": list("Kharkiv Oblast, Lviv Oblast, Odesa Oblast, Dnipropetrovsk Oblast"),
	"US": list("Ohio, Texas, Florida, Nevada, Georgia, Arizona"),
	"GB": list("Greater Manchester, the West Midlands, the West of England"),
	"DE": list("Saxony, Hesse, Lower Saxony, Brandenburg"),
	"FR": list("Occitanie, Grand Est, Bretagne, Hauts-de-France"),
	"IT": list("Lombardy, Sicily, Campania, Calabria"),
	"BR": list("Minas Gerais, Bahia, Paraná, Pará"),
	"TR": list("Konya Province, İzmir Province, Trabzon Province"),
	"AE": list("Sharjah, Ras Al Khaimah, Ajman"),
	"CN": list("Guangdong Province, Zhejiang Province, Sichuan Province, Heilongjiang Province"),
	"KR": list("Gyeonggi Province, South Gyeongsang Province"),
	"NG": list("Kano State, Rivers State, Lagos State, Kaduna State"),
	"IN": list("Maharashtra, Uttar Pradesh, Karnataka, Bihar"),
}

// regionHead is the title of the head of a region in country cc.
func regionHead(cc string) string {
	switch cc {
	case "DE":
		return "Minister-President of"
	case "FR":
		return "President of the Regional Council of"
	case "IT":
		return "President of the Region of"
	case "GB":
		return "Mayor of"
	case "AE":
		return "Member of the Executive Council of"
	case "IN":
		return "Chief Minister of"
	}
	return "Governor of"
}

func regionName(r *rng, cc string) string {
	if l, ok := regionsByCountry[cc]; ok {
		return pick(r, l)
	}
	return "the region of " + cityName(r, cc)
}

// pepIndividual adds the PEP attributes: type, level, positions, parties,
// and for relatives the person they are related to.
func pepIndividual(r *rng, rec *record.Record, src *source, c *culture, cc string) {
	rec.SourceCountry = src.country
	role := choose(r, pepRoles)
	rec.PEPType = role.typ
	if role.typ == "RELATIVES_AND_CLOSE_ASSOCIATES" {
		rel := pick(r, list("Spouse, Son, Daughter, Brother, Sister, Business associate"))
		relatedFemale := r.chance(0.2)
		if rel == "Spouse" {
			relatedFemale = rec.Gender == record.GenderMale
		}
		related := c.name(r, relatedFemale)
		pol := choose(r, pepRoles[:7])
		rec.Description = []string{rel + " of " + related.name + ", " + pol.title(r, cc)}
		switch rel {
		case "Spouse":
			rec.Spouse = []string{related.name}
		case "Son", "Daughter":
			rec.Parents = []string{related.name}
		case "Brother", "Sister":
			rec.Siblings = []string{related.name}
		}
		if r.chance(0.8) {
			rec.PEPLevel = pol.level
		}
		return
	}
	if r.chance(0.88) {
		rec.PEPLevel = role.level
	}
	rec.Positions = []string{role.title(r, cc)}
	if r.chance(0.2) {
		// Lists keep former offices too.
		rec.Positions = appendUnique(rec.Positions, "Former: "+choose(r, pepRoles[:7]).title(r, cc))
	}
	if role.typ == "POLITICIAN" && r.chance(0.6) {
		if p, ok := parties[cc]; ok {
			rec.PoliticalParties = []string{pick(r, p)}
		}
	}
	if r.chance(0.15) {
		rec.Links = []string{src.cat.Link}
	}
	if r.chance(0.2) {
		rec.Functions = []string{pick(r, list("Legislative, Executive, Judicial, Military, Diplomatic, Regulatory"))}
	}
}
