package bench

import "strings"

// The name-part lists below feed the false-hit queries: plausible names of
// people and companies that a screening customer would type, drawn from
// the most common given names and surnames of each naming culture. They are
// kept apart from internal/gen's pools on purpose, so that the false-hit
// measure does not reuse the vocabulary the synthetic database is made of.

// nameCulture is one naming tradition: its common given names, surnames
// and the way a full name is assembled from them.
type nameCulture struct {
	key      string
	given    []string
	surnames []string
	// pattern assembles a full name; pick returns a random element of a
	// list, coin a random boolean.
	pattern func(given, surname func() string, coin func() bool) string
}

func words(s string) []string { return strings.Fields(s) }

// givenSurname is the most common shape: one or two given names and a
// surname.
func givenSurname(given, surname func() string, coin func() bool) string {
	g := given()
	// Two tosses, in this order: a quarter of the names get a middle name.
	if coin() {
		if coin() {
			if m := given(); m != g {
				g += " " + m
			}
		}
	}
	return g + " " + surname()
}

// cultures are weighted equally: the false-hit rate is a mean over
// naming traditions, not over the world's population.
var cultures = []nameCulture{
	{
		key: "english",
		given: words(`James John Robert Michael William David Richard Joseph Thomas Charles
			Christopher Daniel Matthew Anthony Mark Paul Steven Andrew Kenneth Joshua Kevin
			Brian George Edward Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica
			Sarah Karen Nancy Lisa Margaret Betty Sandra Ashley Emily Donna Michelle Laura`),
		surnames: words(`Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor
			Thomas Moore Jackson Martin Lee Thompson White Harris Clark Lewis Robinson Walker
			Young Allen King Wright Scott Green Baker Adams Nelson Hill Campbell Mitchell
			Roberts Carter Phillips Evans Turner Parker Collins Edwards Stewart Morris Cook`),
		pattern: givenSurname,
	},
	{
		key: "spanish",
		given: words(`Jose Juan Luis Carlos Jorge Miguel Pedro Antonio Francisco Manuel Javier
			Alejandro Fernando Ricardo Roberto Eduardo Sergio Raul Diego Andres Pablo Rafael
			Maria Ana Carmen Laura Isabel Lucia Sofia Elena Patricia Rosa Marta Gabriela
			Daniela Valentina Camila Paula Andrea Veronica Silvia Beatriz Claudia Teresa`),
		surnames: words(`Garcia Rodriguez Martinez Hernandez Lopez Gonzalez Perez Sanchez Ramirez
			Torres Flores Rivera Gomez Diaz Cruz Morales Reyes Gutierrez Ortiz Ramos Romero
			Alvarez Mendoza Ruiz Jimenez Vargas Castillo Moreno Herrera Medina Aguilar Vega
			Castro Rojas Guzman Munoz Navarro Delgado Suarez Molina Ortega Silva Nunez`),
		pattern: func(given, surname func() string, coin func() bool) string {
			n := given() + " " + surname()
			if coin() {
				n += " " + surname()
			}
			return n
		},
	},
	{
		key: "arabic",
		given: words(`Ahmed Omar Khalid Youssef Ibrahim Hassan Tariq Karim Samir Nabil Walid
			Faisal Sami Rami Bilal Hamza Adel Majid Nasser Fadi Ziad Jamal Amr Hisham Sherif
			Fatima Aisha Mariam Layla Noor Huda Rania Salma Dina Hana Yasmin Amal Samira Lina`),
		surnames: words(`Haddad Nasser Khoury Saleh Mansour Aziz Farouk Darwish Hamdan Qasim
			Jaber Yassin Sabbagh Bakri Najjar Tamimi Masri Shami Halabi Zoubi Khatib Issa
			Awad Saad Fahmy Shaker Ghanem Rahman Salem Barakat Hijazi Suleiman Othman Nassar`),
		pattern: func(given, surname func() string, coin func() bool) string {
			n := given()
			if coin() {
				if f := given(); f != n {
					n += " " + f
				}
			}
			return n + " " + surname()
		},
	},
	{
		key: "russian",
		given: words(`Aleksey Andrey Anton Artem Boris Denis Dmitriy Egor Ilya Kirill Konstantin
			Maksim Mikhail Nikita Oleg Pavel Roman Ruslan Stanislav Vadim Valeriy Vasiliy
			Anna Daria Ekaterina Elena Irina Kseniya Larisa Lyudmila Marina Natalya Olga
			Polina Svetlana Tatyana Ulyana Valentina Vera Yuliya Zoya Galina Alla`),
		surnames: words(`Smirnov Kuznetsov Popov Vasilyev Petrov Sokolov Mikhaylov Novikov Fedorov
			Morozov Volkov Alekseyev Lebedev Semenov Egorov Pavlov Kozlov Stepanov Nikolayev
			Orlov Andreyev Makarov Nikitin Zakharov Zaytsev Solovyev Borisov Yakovlev Grigoryev
			Romanov Vorobyev Sergeyev Kuzmin Frolov Aleksandrov Dmitriyev Korolev Gusev Kiselev`),
		pattern: givenSurname,
	},
	{
		key: "chinese",
		given: words(`Wei Fang Min Jing Lei Jun Yan Hui Tao Ming Qiang Xin Yang Bo Hong Ping
			Hua Gang Ling Yun Jie Chao Peng Xia Kai Hao Yu Na Li Juan Chen Rui Lan`),
		surnames: words(`Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He
			Gao Lin Luo Zheng Liang Xie Song Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong`),
		pattern: func(given, surname func() string, coin func() bool) string {
			g := given()
			if coin() {
				g += " " + given()
			}
			if coin() {
				return g + " " + surname()
			}
			return surname() + " " + g
		},
	},
	{
		key: "indian",
		given: words(`Rahul Amit Vijay Rajesh Suresh Anil Sunil Sanjay Ravi Manoj Deepak Arun
			Ajay Vikram Ashok Prakash Nitin Rohit Sachin Kiran Priya Anjali Sunita Pooja Neha
			Kavita Meena Rekha Swati Divya Asha Lakshmi Geeta Shalini Nisha Ritu`),
		surnames: words(`Sharma Verma Gupta Patel Singh Kumar Reddy Rao Nair Iyer Mehta Shah Joshi
			Desai Kulkarni Pillai Menon Chatterjee Banerjee Mukherjee Das Bose Agarwal Malhotra
			Kapoor Chopra Bhatia Saxena Mishra Pandey Tiwari Yadav Chauhan Jain Naidu`),
		pattern: givenSurname,
	},
	{
		key: "german",
		given: words(`Thomas Michael Andreas Stefan Christian Markus Frank Peter Klaus Wolfgang
			Juergen Uwe Dieter Tobias Florian Matthias Sebastian Jan Lukas Felix Sabine Petra
			Monika Ursula Claudia Andrea Stefanie Katrin Susanne Birgit Anja Julia Lena Heike`),
		surnames: words(`Mueller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann
			Schaefer Koch Bauer Richter Klein Wolf Schroeder Neumann Schwarz Zimmermann Braun
			Krueger Hofmann Hartmann Lange Schmitt Werner Krause Lehmann Koehler Maier Herrmann`),
		pattern: givenSurname,
	},
	{
		key: "french",
		given: words(`Jean Pierre Michel Philippe Alain Nicolas Christophe Laurent Frederic
			Olivier Julien Antoine Mathieu Guillaume Sebastien Vincent Francois Thierry Eric
			Marie Nathalie Isabelle Sylvie Catherine Sophie Christine Valerie Sandrine Celine
			Aurelie Camille Chloe Manon Juliette`),
		surnames: words(`Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau
			Simon Laurent Lefebvre Michel Garcia David Bertrand Roux Vincent Fournier Morel
			Girard Andre Lefevre Mercier Dupont Lambert Bonnet Francois Martinez Legrand
			Garnier Faure Rousseau Blanc Guerin Muller Henry Roussel Nicolas`),
		pattern: givenSurname,
	},
	{
		key: "persian",
		given: words(`Reza Mehdi Hossein Amir Ali Saeed Hamid Majid Behrouz Farhad Kamran Babak
			Dariush Shahram Parviz Kourosh Arash Navid Omid Payam Maryam Zahra Fereshteh Leila
			Shirin Parisa Niloufar Roya Mina Azadeh Mahsa Sara Negar Elham`),
		surnames: words(`Ahmadi Hosseini Mohammadi Rezaei Moradi Karimi Jafari Rahimi Hashemi
			Kazemi Ebrahimi Sadeghi Ghasemi Azizi Amini Nazari Bagheri Rostami Shirazi
			Tehrani Esfahani Farahani Navabi Kamali Jalali Salehi Mousavi Najafi Shahidi
			Tavakoli Hejazi Yazdani Zamani Abbasi`),
		pattern: givenSurname,
	},
	{
		key: "turkish",
		given: words(`Mehmet Mustafa Ahmet Huseyin Hasan Ibrahim Ismail Osman Yusuf Murat Omer
			Ramazan Halil Suleyman Abdullah Emre Burak Serkan Hakan Kemal Fatma Ayse Emine
			Hatice Zeynep Elif Meryem Sultan Hulya Esra Ozlem Derya Gamze Tugba`),
		surnames: words(`Yilmaz Kaya Demir Sahin Celik Yildiz Yildirim Ozturk Aydin Ozdemir
			Arslan Dogan Kilic Aslan Cetin Kara Koc Kurt Ozkan Simsek Polat Ozcan Korkmaz
			Cakir Erdogan Yavuz Can Acar Sen Aksoy Guler Tekin Unal Bulut Keskin`),
		pattern: givenSurname,
	},
	{
		key: "portuguese",
		given: words(`Joao Jose Antonio Francisco Carlos Paulo Pedro Lucas Luiz Marcos Gabriel
			Rafael Daniel Marcelo Bruno Eduardo Felipe Rodrigo Gustavo Thiago Ana Francisca
			Antonia Adriana Juliana Marcia Fernanda Patricia Aline Sandra Camila Amanda Bruna
			Jessica Leticia Vanessa Mariana`),
		surnames: words(`Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes
			Costa Ribeiro Martins Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa
			Rocha Dias Nascimento Andrade Moreira Nunes Marques Machado Mendes Freitas Cardoso
			Ramos Goncalves Santana Teixeira`),
		pattern: func(given, surname func() string, coin func() bool) string {
			n := given() + " " + surname()
			if coin() {
				n = given() + " " + surname() + " " + surname()
			}
			return n
		},
	},
	{
		key: "west_african",
		given: words(`Chinedu Emeka Obinna Oluwaseun Babatunde Adebayo Kwame Kofi Kwabena Yaw
			Ibrahima Mamadou Moussa Abdoulaye Sekou Ousmane Chukwuemeka Tunde Segun Femi
			Ngozi Chioma Adaeze Funmilayo Abena Akosua Ama Efua Aminata Fatoumata Mariama
			Aissatou Kadiatou Folake Yetunde`),
		surnames: words(`Okafor Okeke Okonkwo Eze Nwosu Adeyemi Adebayo Ogunleye Olawale Balogun
			Mensah Owusu Boateng Asante Osei Agyeman Appiah Diallo Traore Keita Coulibaly
			Kone Toure Camara Sow Ba Ndiaye Diop Fall Sylla Bangura Kamara Conteh`),
		pattern: givenSurname,
	},
}

// companyHeads and companyTrades make plausible company names: a
// distinctive word, a trade, and often a legal form.
var (
	companyHeads = words(`Blue Green Golden Silver Northern Southern Eastern Western Pacific
		Atlantic Summit Pioneer Horizon Evergreen Sunrise Riverside Lakeside Highland Harbor
		Crescent Liberty Heritage Meridian Keystone Redwood Oakwood Maple Cedar Falcon Eagle
		Phoenix Orion Apex Zenith Vertex Nova Prime Unity Vista Crown Royal Coastal Metro
		Urban Alpine Granite Beacon Compass Anchor Lighthouse Bridgewater Westfield Brightstone`)
	companyTrades = words(`Trading Logistics Consulting Holdings Industries Solutions Technologies
		Systems Services Partners Ventures Capital Investments Properties Construction
		Engineering Foods Textiles Pharmaceuticals Electronics Energy Shipping Marine Agro
		Motors Plastics Minerals Chemicals Software Media Healthcare Retail Imports Exports
		Packaging Furniture Apparel Printing Security Cleaning Catering Dental`)
)

// legalFormSpellings are common spellings of legal forms, grouped at run
// time by the class the project's legal-form table puts them in; spellings
// the table does not know are ignored, so the list may be generous.
var legalFormSpellings = []string{
	"LLC", "L.L.C.", "Limited Liability Company",
	"Ltd", "Ltd.", "Limited",
	"PLC", "P.L.C.", "Public Limited Company",
	"GmbH", "Gesellschaft mit beschränkter Haftung", "Ges.m.b.H.",
	"AG", "Aktiengesellschaft",
	"JSC", "Joint Stock Company", "AO", "Aktsionernoye Obshchestvo", "Акционерное общество",
	"PJSC", "Public Joint Stock Company", "PAO", "Публичное акционерное общество",
	"OJSC", "Open Joint Stock Company", "OAO",
	"CJSC", "Closed Joint Stock Company", "ZAO",
	"OOO", "Obshchestvo s Ogranichennoy Otvetstvennostyu", "Общество с ограниченной ответственностью",
	"Inc", "Inc.", "Incorporated",
	"Corp", "Corp.", "Corporation",
	"Co", "Co.", "Company",
	"SA", "S.A.", "Sociedad Anonima", "Société Anonyme",
	"SRL", "S.R.L.", "Sociedad de Responsabilidad Limitada",
	"SARL", "S.A.R.L.", "Société à responsabilité limitée",
	"BV", "B.V.", "Besloten Vennootschap",
	"NV", "N.V.", "Naamloze Vennootschap",
	"FZE", "Free Zone Establishment",
	"FZCO", "Free Zone Company",
	"Pte Ltd", "Private Limited",
	"Sdn Bhd", "Sendirian Berhad",
	"LLP", "Limited Liability Partnership",
}

// falseEntityForms are the legal forms appended to generated company
// names, as a customer would write them.
var falseEntityForms = []string{"LLC", "Ltd", "Limited", "Inc", "GmbH", "SA", "Corp", "PLC", "JSC"}
