package gen

import "strings"

// Name pools. Latin pools are comma-separated; script pools are lines of
// "|"-separated fields whose layout each parser documents. None of them holds
// a token that identifies a seed record (Putin, Acme, Ромашка, al-Zahrani,
// 华安达, Adrian, Brandtner), so no generated record can pass for one.

func list(s string) []string {
	parts := strings.Split(s, ",")
	out := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func lines(s string) [][]string {
	var out [][]string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, strings.Split(l, "|"))
		}
	}
	return out
}

// Latin-script cultures.
var (
	anglo = latinPool{
		male:     list("John, James, Robert, Michael, William, David, Richard, Joseph, Thomas, Charles, Christopher, Daniel, Matthew, Anthony, Mark, Steven, Paul, Andrew, Kenneth, Brian, Kevin, George, Edward, Ronald, Timothy, Jason, Patrick, Sean, Liam, Declan, Gareth, Nigel, Graham, Craig"),
		female:   list("Mary, Patricia, Jennifer, Linda, Elizabeth, Barbara, Susan, Jessica, Sarah, Karen, Margaret, Emily, Siobhan, Aoife, Catherine, Helen, Deborah, Rachel, Gillian, Fiona"),
		surnames: list("Smith, Johnson, Williams, Brown, Jones, Miller, Davis, Wilson, Anderson, Taylor, Thomas, Moore, Jackson, White, Harris, Thompson, Robinson, Clark, Lewis, Walker, Hall, Allen, Young, King, Wright, Scott, Green, Baker, Adams, Campbell, Evans, Edwards, Collins, Stewart, Morris, Murphy, Cook, Rogers, Morgan, Cooper, Reed, Bailey, Kelly, Howard, Ward, Richardson, Watson, Brooks, Bennett, Hughes, O'Brien, O'Sullivan, O'Connor, McCarthy, Walsh, Byrne, Ryan, Doyle, Kennedy, Lynch, Fitzgerald, MacDonald, McLeod, Fletcher, Holloway, Pritchard"),
		nick: map[string]string{"Robert": "Bob", "William": "Bill", "Richard": "Rick", "James": "Jim", "Michael": "Mike", "Joseph": "Joe",
			"Thomas": "Tom", "Edward": "Ted", "Anthony": "Tony", "Christopher": "Chris", "Daniel": "Dan", "Elizabeth": "Liz", "Margaret": "Peggy",
			"Patricia": "Patty", "Jennifer": "Jenny", "Kenneth": "Ken", "Timothy": "Tim", "Catherine": "Kate", "Steven": "Steve", "Andrew": "Andy"},
		middleP: 0.35,
	}
	german = latinPool{
		male:     list("Thomas, Michael, Andreas, Stefan, Klaus, Jürgen, Wolfgang, Peter, Hans, Uwe, Frank, Markus, Matthias, Dieter, Bernd, Jörg, Ralf, Sven, Tobias, Florian, Karl-Heinz, Hans-Peter, Günter, Horst, Detlef, Reinhard"),
		female:   list("Sabine, Petra, Monika, Ursula, Claudia, Susanne, Andrea, Birgit, Katrin, Anja, Heike, Jutta, Gisela, Brigitte, Dörte, Ingrid, Renate"),
		surnames: list("Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Schäfer, Koch, Bauer, Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hofmann, Hartmann, Lange, Schmitt, Werner, Krause, Meier, Lehmann, Köhler, Weiß, Jäger, Groß, Vogel, Friedrich, Keller, Günther, Berger, Kaiser, Fuchs, Scholz, Lorenz, Baumann, Oberhuber, Steinbach"),
		german:   true,
		middleP:  0.3,
	}
	french = latinPool{
		male:     list("Jean, Pierre, Michel, Philippe, Alain, Nicolas, François, Christophe, Laurent, Frédéric, Éric, Olivier, Patrick, Jean-Pierre, Jean-Luc, Thierry, Sébastien, Julien, Stéphane, Benoît, Didier, Gérard, Hervé, Yves"),
		female:   list("Marie, Nathalie, Isabelle, Sylvie, Catherine, Françoise, Valérie, Christine, Sandrine, Céline, Véronique, Sophie, Hélène, Élodie, Aurélie, Anne-Marie"),
		surnames: list("Martin, Bernard, Dubois, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent, Lefèvre, Michel, David, Bertrand, Roux, Vincent, Fournier, Morel, Girard, André, Lefebvre, Mercier, Dupont, Lambert, Bonnet, Legrand, Garnier, Faure, Rousseau, Blanc, Guérin, Henry, Roussel, Perrin, Morin, Mathieu, Clément, Gauthier, Dumont, Fontaine, Chevalier, Desmarais, Château"),
		middleP:  0.25,
	}
	italian = latinPool{
		male:     list("Giuseppe, Giovanni, Antonio, Mario, Luigi, Francesco, Angelo, Vincenzo, Pietro, Salvatore, Carlo, Franco, Domenico, Bruno, Paolo, Michele, Giorgio, Alessandro, Matteo, Lorenzo, Stefano, Massimo, Roberto, Gianluca"),
		female:   list("Maria, Anna, Giuseppina, Rosa, Angela, Giovanna, Teresa, Lucia, Carmela, Francesca, Chiara, Giulia, Elena, Paola, Federica, Alessandra"),
		surnames: list("Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo, Conti, De Luca, Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri, Fontana, Santoro, Mariani, Rinaldi, Caruso, Ferrara, Galli, Martini, Leone, Longo, Gentile, Vitale, Coppola, De Santis, D'Angelo, Messina, Palumbo, Cattaneo, Sorrentino, D'Amico"),
		middleP:  0.2,
	}
	polish = latinPool{
		male:     list("Piotr, Krzysztof, Andrzej, Tomasz, Paweł, Marcin, Michał, Grzegorz, Jerzy, Tadeusz, Łukasz, Adam, Zbigniew, Ryszard, Dariusz, Henryk, Mariusz, Kazimierz, Wojciech, Jacek"),
		female:   list("Anna, Maria, Katarzyna, Małgorzata, Agnieszka, Barbara, Ewa, Krystyna, Elżbieta, Magdalena, Joanna, Aleksandra, Monika, Beata"),
		surnames: list("Nowak, Kowalski, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński, Szymański, Woźniak, Dąbrowski, Kozłowski, Jankowski, Mazur, Kwiatkowski, Krawczyk, Piotrowski, Grabowski, Nowakowski, Pawłowski, Michalski, Nowicki, Adamczyk, Dudek, Zając, Wieczorek, Jabłoński, Król, Majewski, Olszewski, Sadowski, Zawadzki"),
		femSurname: func(s string) string {
			for _, suf := range []string{"ski", "cki", "dzki"} {
				if strings.HasSuffix(s, suf) {
					return s[:len(s)-1] + "a"
				}
			}
			return s
		},
		middleP: 0.15,
	}
	turkish = latinPool{
		male:     list("Mehmet, Mustafa, Ahmet, Ali, Hüseyin, Hasan, İbrahim, İsmail, Osman, Yusuf, Murat, Ömer, Ramazan, Halil, Süleyman, Abdullah, Emre, Burak, Serkan, Kemal, Cem, Oğuz, Volkan, Erdal"),
		female:   list("Fatma, Ayşe, Emine, Hatice, Zeynep, Elif, Meryem, Şerife, Zehra, Sultan, Hülya, Gül, Derya, Özlem"),
		surnames: list("Yılmaz, Kaya, Demir, Şahin, Çelik, Yıldız, Yıldırım, Öztürk, Aydın, Özdemir, Arslan, Doğan, Kılıç, Aslan, Çetin, Kara, Koç, Kurt, Özkan, Şimşek, Polat, Korkmaz, Erdem, Güneş, Aksoy, Tekin, Karataş"),
		middleP:  0.2,
	}
	indian = latinPool{
		male:     list("Rajesh, Suresh, Ramesh, Amit, Anil, Sunil, Vijay, Sanjay, Rahul, Arun, Manoj, Ashok, Deepak, Vikram, Prakash, Ravi, Harish, Mukesh, Naveen, Imran, Asif, Javed, Farooq, Zubair"),
		female:   list("Priya, Sunita, Anita, Kavita, Pooja, Neha, Lakshmi, Meena, Rekha, Shabana, Nazia, Deepa"),
		surnames: list("Sharma, Verma, Gupta, Kumar, Singh, Patel, Shah, Mehta, Reddy, Rao, Nair, Iyer, Chopra, Malhotra, Agarwal, Joshi, Khan, Qureshi, Siddiqui, Chaudhry, Bhatt, Desai, Pillai, Menon, Banerjee, Chatterjee, Mukherjee, Das, Bose, Goswami, Hussain, Malik"),
		middles:  list("Kumar, Prasad, Lal, Chand, Nath, Mohan"),
		middleP:  0.3,
	}
	westAfrican = latinPool{
		male:     list("Chukwuemeka, Oluwaseun, Adebayo, Emeka, Ikechukwu, Babatunde, Olumide, Abubakar, Ibrahim, Musa, Aminu, Yusuf, Kwame, Kofi, Kwabena, Mamadou, Ousmane, Moussa, Abdoulaye, Amadou, Sékou, Ibrahima, Tunde, Chinedu, Uche, Nnamdi"),
		female:   list("Ngozi, Chiamaka, Funmilayo, Aisha, Amina, Fatou, Aminata, Adaeze, Folake, Yetunde, Abena, Akosua, Mariama, Hadiza"),
		surnames: list("Okafor, Okonkwo, Adeyemi, Adebayo, Ogunleye, Eze, Nwosu, Obi, Balogun, Bello, Abubakar, Mohammed, Sani, Danjuma, Mensah, Owusu, Boateng, Asante, Diallo, Traoré, Coulibaly, Keïta, Camara, Touré, Sow, Ba, Ndiaye, Diop, Sylla, Koné, Oyelaran, Nwachukwu"),
		middleP:  0.4,
	}
	spanishMale     = list("José, Juan, Antonio, Manuel, Francisco, Luis, Carlos, Jesús, Javier, Miguel, Pedro, Alejandro, Rafael, Fernando, Jorge, Alberto, Ricardo, Diego, Andrés, Eduardo, Héctor, Raúl, Joaquín, Óscar, Ramón, José Luis, Juan Carlos, Miguel Ángel, Luis Alberto, Juan Pablo")
	spanishFemale   = list("María, Carmen, Ana, Isabel, Laura, Lucía, Marta, Rosa, Elena, Patricia, Gabriela, Adriana, Claudia, Verónica, Mónica, Guadalupe, María José, Ana María, María Fernanda")
	spanishSurnames = list("García, Rodríguez, González, Fernández, López, Martínez, Sánchez, Pérez, Gómez, Jiménez, Ruiz, Hernández, Díaz, Moreno, Muñoz, Álvarez, Romero, Gutiérrez, Navarro, Torres, Domínguez, Vázquez, Ramos, Ramírez, Serrano, Molina, Morales, Suárez, Ortega, Delgado, Castro, Ortiz, Núñez, Medina, Guerrero, Mendoza, Castillo, Cruz, Flores, Herrera, Peña, Cabrera, Vargas, Rojas, Quintero, Zambada, Salazar, Arellano")
	spanishNick     = list("El Mudo, El Güero, El Flaco, El Chino, El Gallo, El Tigre, El Señor, Don Pepe, El Gordo, La Reina, El Primo, El Contador, El Ingeniero, El Tío")
	portugueseMale  = list("João, José, Antônio, Francisco, Carlos, Paulo, Pedro, Lucas, Luiz, Marcos, Gabriel, Rafael, Daniel, Marcelo, Bruno, Eduardo, Felipe, Raimundo, Rodrigo, Sérgio")
	portugueseFem   = list("Maria, Ana, Francisca, Antônia, Adriana, Juliana, Márcia, Fernanda, Patrícia, Aline, Luciana, Cláudia")
	portugueseSur   = list("Silva, Santos, Oliveira, Souza, Rodrigues, Ferreira, Alves, Pereira, Lima, Gomes, Costa, Ribeiro, Martins, Carvalho, Almeida, Lopes, Soares, Fernandes, Vieira, Barbosa, Rocha, Dias, Nascimento, Andrade, Moreira, Nunes, Marques, Machado, Mendes, Freitas, Cardoso, Gonçalves, Teixeira")
)

// Russian given names: cyrillic | romanisations | male patronymic cyrillic |
// its romanisations | female patronymic cyrillic | its romanisation. Female
// given names carry only the first two fields.
var (
	russianMale = parseSlavic(`
Александр|Aleksandr,Alexander,Alexandr|Александрович|Aleksandrovich,Alexandrovich|Александровна|Aleksandrovna
Сергей|Sergey,Sergei,Sergej|Сергеевич|Sergeyevich,Sergeevich|Сергеевна|Sergeyevna
Владимир|Vladimir,Wladimir|Владимирович|Vladimirovich|Владимировна|Vladimirovna
Дмитрий|Dmitry,Dmitriy,Dmitri|Дмитриевич|Dmitriyevich,Dmitrievich|Дмитриевна|Dmitriyevna
Андрей|Andrey,Andrei|Андреевич|Andreyevich,Andreevich|Андреевна|Andreyevna
Алексей|Aleksey,Alexei,Alexey|Алексеевич|Alekseyevich,Alekseevich|Алексеевна|Alekseyevna
Михаил|Mikhail,Michail|Михайлович|Mikhaylovich,Mikhailovich|Михайловна|Mikhaylovna
Николай|Nikolay,Nikolai|Николаевич|Nikolayevich,Nikolaevich|Николаевна|Nikolayevna
Игорь|Igor|Игоревич|Igorevich|Игоревна|Igorevna
Евгений|Yevgeniy,Evgeny,Evgeniy|Евгеньевич|Yevgenyevich,Evgenievich|Евгеньевна|Yevgenyevna
Юрий|Yuriy,Yury,Yuri|Юрьевич|Yuryevich,Yurievich|Юрьевна|Yuryevna
Олег|Oleg|Олегович|Olegovich|Олеговна|Olegovna
Виктор|Viktor,Victor|Викторович|Viktorovich|Викторовна|Viktorovna
Борис|Boris|Борисович|Borisovich|Борисовна|Borisovna
Геннадий|Gennadiy,Gennady|Геннадьевич|Gennadyevich,Gennadievich|Геннадьевна|Gennadyevna
Роман|Roman|Романович|Romanovich|Романовна|Romanovna
Павел|Pavel|Павлович|Pavlovich|Павловна|Pavlovna
Константин|Konstantin|Константинович|Konstantinovich|Константиновна|Konstantinovna
Вячеслав|Vyacheslav,Viacheslav|Вячеславович|Vyacheslavovich|Вячеславовна|Vyacheslavovna
Анатолий|Anatoliy,Anatoly|Анатольевич|Anatolyevich,Anatolievich|Анатольевна|Anatolyevna
Аркадий|Arkadiy,Arkady|Аркадьевич|Arkadyevich,Arkadievich|Аркадьевна|Arkadyevna
Тимур|Timur|Тимурович|Timurovich|Тимуровна|Timurovna
Григорий|Grigoriy,Grigory|Григорьевич|Grigoryevich,Grigorievich|Григорьевна|Grigoryevna
Валерий|Valeriy,Valery|Валерьевич|Valeryevich,Valerievich|Валерьевна|Valeryevna
Пётр|Pyotr,Petr,Peter|Петрович|Petrovich|Петровна|Petrovna
Иван|Ivan|Иванович|Ivanovich|Ивановна|Ivanovna
Леонид|Leonid|Леонидович|Leonidovich|Леонидовна|Leonidovna
Артём|Artyom,Artem|Артёмович|Artyomovich,Artemovich|Артёмовна|Artyomovna
Кирилл|Kirill|Кириллович|Kirillovich|Кирилловна|Kirillovna
Денис|Denis|Денисович|Denisovich|Денисовна|Denisovna
Руслан|Ruslan|Русланович|Ruslanovich|Руслановна|Ruslanovna
Максим|Maksim,Maxim|Максимович|Maksimovich,Maximovich|Максимовна|Maksimovna
`)
	russianFemale = parseSlavic(`
Елена|Yelena,Elena
Ольга|Olga
Наталья|Natalya,Natalia
Татьяна|Tatyana,Tatiana
Ирина|Irina
Светлана|Svetlana
Анна|Anna
Мария|Mariya,Maria
Екатерина|Yekaterina,Ekaterina
Юлия|Yuliya,Yulia,Julia
Марина|Marina
Людмила|Lyudmila,Ludmila
Валентина|Valentina
Галина|Galina
Ксения|Kseniya,Ksenia
Алина|Alina
Дарья|Darya,Daria
Вероника|Veronika
`)
	russianSurnames = parseSlavic(`
Иванов|Ivanov,Iwanow,Ivanoff
Смирнов|Smirnov,Smirnow
Кузнецов|Kuznetsov,Kusnezow
Попов|Popov,Popow
Васильев|Vasilyev,Vasiliev,Wassiljew
Петров|Petrov,Petroff
Соколов|Sokolov
Михайлов|Mikhaylov,Mikhailov
Новиков|Novikov
Фёдоров|Fyodorov,Fedorov
Морозов|Morozov
Волков|Volkov,Wolkow
Алексеев|Alekseyev,Alekseev
Лебедев|Lebedev
Семёнов|Semyonov,Semenov
Егоров|Yegorov,Egorov
Павлов|Pavlov
Козлов|Kozlov
Степанов|Stepanov
Николаев|Nikolayev,Nikolaev
Орлов|Orlov
Андреев|Andreyev,Andreev
Макаров|Makarov
Никитин|Nikitin
Захаров|Zakharov,Zacharov
Зайцев|Zaytsev,Zaitsev
Соловьёв|Solovyov,Soloviev
Борисов|Borisov
Яковлев|Yakovlev
Григорьев|Grigoryev,Grigoriev
Романов|Romanov
Воробьёв|Vorobyov,Vorobiev
Кириллов|Kirillov
Тарасов|Tarasov
Белов|Belov
Комаров|Komarov
Гусев|Gusev
Титов|Titov
Ковалёв|Kovalyov,Kovalev
Шувалов|Shuvalov
Ротенберг|Rotenberg
Тимченко|Timchenko
Жуковский|Zhukovskiy,Zhukovsky
Вишневский|Vishnevskiy,Vishnevsky
Березовский|Berezovskiy,Berezovsky
Черкасов|Cherkasov
Абрамов|Abramov
Усманов|Usmanov
Хабибуллин|Khabibullin
Кадыров|Kadyrov
`)
	ukrainianMale = parseSlavic(`
Олександр|Oleksandr,Olexandr,Aleksandr|Олександрович|Oleksandrovych|Олександрівна|Oleksandrivna
Володимир|Volodymyr,Vladimir|Володимирович|Volodymyrovych|Володимирівна|Volodymyrivna
Петро|Petro|Петрович|Petrovych|Петрівна|Petrivna
Андрій|Andriy,Andrii|Андрійович|Andriyovych|Андріївна|Andriyivna
Сергій|Serhiy,Serhii,Sergey|Сергійович|Serhiyovych|Сергіївна|Serhiyivna
Віктор|Viktor|Вікторович|Viktorovych|Вікторівна|Viktorivna
Юрій|Yuriy,Yurii|Юрійович|Yuriyovych|Юріївна|Yuriyivna
Богдан|Bohdan,Bogdan|Богданович|Bohdanovych|Богданівна|Bohdanivna
Тарас|Taras|Тарасович|Tarasovych|Тарасівна|Tarasivna
Микола|Mykola,Nikolay|Миколайович|Mykolayovych|Миколаївна|Mykolayivna
Василь|Vasyl,Vasiliy|Васильович|Vasylovych|Василівна|Vasylivna
Іван|Ivan|Іванович|Ivanovych|Іванівна|Ivanivna
Олег|Oleh,Oleg|Олегович|Olehovych|Олегівна|Olehivna
Дмитро|Dmytro,Dmitriy|Дмитрович|Dmytrovych|Дмитрівна|Dmytrivna
`)
	ukrainianFemale = parseSlavic(`
Олена|Olena,Elena
Оксана|Oksana
Наталія|Nataliya,Natalia
Тетяна|Tetiana,Tetyana,Tatyana
Ірина|Iryna,Irina
Юлія|Yuliia,Yulia
Людмила|Liudmyla,Lyudmyla
Світлана|Svitlana
Ганна|Hanna,Anna
Марія|Mariia,Maria
`)
	ukrainianSurnames = parseSlavic(`
Шевченко|Shevchenko
Коваленко|Kovalenko
Бондаренко|Bondarenko
Ткаченко|Tkachenko
Кравченко|Kravchenko
Олійник|Oliinyk,Oliynyk
Мельник|Melnyk,Melnik
Шевчук|Shevchuk
Поліщук|Polishchuk
Бойко|Boyko,Boiko
Ткачук|Tkachuk
Савченко|Savchenko
Руденко|Rudenko
Марченко|Marchenko
Лисенко|Lysenko
Гриценко|Hrytsenko,Gritsenko
Мороз|Moroz
Павленко|Pavlenko
Литвиненко|Lytvynenko,Litvinenko
Клименко|Klymenko,Klimenko
Левченко|Levchenko
Ковальчук|Kovalchuk
Медведчук|Medvedchuk
`)
)

// slavic is one Cyrillic name with its romanisations and, for male given
// names, the patronymics derived from it.
type slavic struct {
	cyr     string
	lat     []string
	patM    string
	patMLat []string
	patF    string
	patFLat string
}

func parseSlavic(s string) []slavic {
	var out []slavic
	for _, f := range lines(s) {
		n := slavic{cyr: f[0], lat: list(f[1])}
		if len(f) >= 6 {
			n.patM, n.patMLat, n.patF, n.patFLat = f[2], list(f[3]), f[4], f[5]
		}
		out = append(out, n)
	}
	return out
}

// feminineCyr and feminineLat derive the feminine form of a Russian surname:
// -ов/-ев/-ин take -а, -ский becomes -ская; others do not change.
func feminineCyr(s string) string {
	switch {
	case strings.HasSuffix(s, "ский"), strings.HasSuffix(s, "цкий"):
		return strings.TrimSuffix(s, "ий") + "ая"
	case strings.HasSuffix(s, "ов"), strings.HasSuffix(s, "ев"), strings.HasSuffix(s, "ёв"), strings.HasSuffix(s, "ин"), strings.HasSuffix(s, "ын"):
		return s + "а"
	}
	return s
}

func feminineLat(s string) string {
	switch {
	case strings.HasSuffix(s, "skiy"):
		return strings.TrimSuffix(s, "skiy") + "skaya"
	case strings.HasSuffix(s, "sky"):
		return strings.TrimSuffix(s, "sky") + "skaya"
	case strings.HasSuffix(s, "off"):
		return strings.TrimSuffix(s, "off") + "ova"
	case strings.HasSuffix(s, "ow"):
		return s + "a"
	case strings.HasSuffix(s, "ov"), strings.HasSuffix(s, "ev"), strings.HasSuffix(s, "in"), strings.HasSuffix(s, "yn"):
		return s + "a"
	}
	return s
}

// scripted is a name in a non-Latin script with its romanisations, the
// first being the one a transliteration tool would produce.
type scripted struct {
	native string
	lat    []string
}

func parseScripted(s string) []scripted {
	var out []scripted
	for _, f := range lines(s) {
		out = append(out, scripted{native: f[0], lat: list(f[1])})
	}
	return out
}

var (
	arabicMale = parseScripted(`
محمد|Muhammad,Mohammed,Mohamed,Mohammad
أحمد|Ahmad,Ahmed
علي|Ali
عبد الله|Abdullah,Abdallah,Abd Allah
عبد العزيز|Abd al-Aziz,Abdulaziz,Abdul Aziz
عبد الكريم|Abd al-Karim,Abdulkarim,Abdul Karim
خالد|Khalid,Khaled
عمر|Umar,Omar
يوسف|Yusuf,Youssef,Yousef
إبراهيم|Ibrahim,Ebrahim
حسن|Hasan,Hassan
حسين|Husayn,Hussein,Hussain
مصطفى|Mustafa,Moustafa
سعيد|Said,Saeed
ماجد|Majid,Majed
فيصل|Faysal,Faisal
سلمان|Salman
طارق|Tariq,Tarek
كريم|Karim,Kareem
ناصر|Nasir,Nasser
جمال|Jamal,Gamal
هشام|Hisham,Hesham
وليد|Walid,Waleed
زياد|Ziyad,Ziad
عماد|Imad,Emad
منصور|Mansur,Mansour
سليمان|Sulayman,Suleiman,Sulaiman
حمزة|Hamza,Hamzah
بلال|Bilal
رامي|Rami
`)
	arabicFemale = parseScripted(`
فاطمة|Fatima,Fatimah
عائشة|Aisha,Aicha,Aysha
مريم|Maryam,Mariam
زينب|Zaynab,Zainab
خديجة|Khadija,Khadijah
نور|Nur,Nour,Noor
ليلى|Layla,Leila
سارة|Sara,Sarah
هدى|Huda,Hoda
أمل|Amal
رنا|Rana
سلمى|Salma
`)
	arabicFamilies = parseScripted(`
الحربي|al-Harbi,Al Harbi,Alharbi
القحطاني|al-Qahtani,Al Qahtani,Alkahtani
الشمري|al-Shammari,Al Shammari,Alshammari
العتيبي|al-Utaybi,Al Otaibi,Alotaibi
الدوسري|al-Dawsari,Al Dosari,Al Dossary
المطيري|al-Mutayri,Al Mutairi
التميمي|al-Tamimi,Al Tamimi
الجبوري|al-Jaburi,Al Jubouri,Al Jabouri
الدليمي|al-Dulaymi,Al Dulaimi
العبيدي|al-Ubaydi,Al Obaidi
الخطيب|al-Khatib,Al Khateeb,El Khatib
المصري|al-Misri,Al Masri,El Masry
الحسيني|al-Husayni,Al Husseini
الكبيسي|al-Kubaysi,Al Kubaisi
حداد|Haddad
خوري|Khuri,Khoury,Khouri
نصر|Nasr
الحلبي|al-Halabi,Al Halabi
العلي|al-Ali,Al Ali
الشامي|al-Shami,Al Shami
الهاشمي|al-Hashimi,Al Hashemi
المري|al-Marri,Al Marri
الكعبي|al-Kaabi,Al Kaabi
النعيمي|al-Nuaymi,Al Nuaimi
العمري|al-Umari,Al Omari
الزبيدي|al-Zubaydi,Al Zubaidi
`)
	persianMale = parseScripted(`
محمدرضا|Mohammadreza,Mohammad Reza
علیرضا|Alireza,Ali Reza
حسین|Hossein,Hosein,Hussein
مهدی|Mehdi,Mahdi
رضا|Reza
حمید|Hamid
مسعود|Masoud,Masood
سعید|Saeed,Said
جواد|Javad,Jawad
مجید|Majid
امیر|Amir
بهروز|Behrouz,Behruz
فرهاد|Farhad
کاوه|Kaveh
داریوش|Dariush,Daryoush
محسن|Mohsen
قاسم|Ghasem,Qasem
اکبر|Akbar
`)
	persianFemale = parseScripted(`
فاطمه|Fatemeh
زهرا|Zahra
مریم|Maryam
شیرین|Shirin
نسرین|Nasrin
لیلا|Leila,Layla
پریسا|Parisa
مهسا|Mahsa
`)
	persianSurnames = parseScripted(`
احمدی|Ahmadi
حسینی|Hosseini,Hoseini
محمدی|Mohammadi
رضایی|Rezaei,Rezaee
موسوی|Mousavi,Musavi
کریمی|Karimi
جعفری|Jafari,Jaafari
رحیمی|Rahimi
صادقی|Sadeghi,Sadeqi
نوری|Nouri,Noori
قاسمی|Ghasemi,Qasemi
کاظمی|Kazemi
طاهری|Taheri
شریفی|Sharifi
باقری|Bagheri,Baqeri
نجفی|Najafi
زارعی|Zarei
امیری|Amiri
هاشمی|Hashemi
تهرانی|Tehrani
اصفهانی|Esfahani,Isfahani
`)
	// Chinese surnames: Han | pinyin, Cantonese or Wade-Giles spellings.
	chineseSurnames = parseScripted(`
王|Wang,Wong
李|Li,Lee
张|Zhang,Cheung,Chang
刘|Liu,Lau
陈|Chen,Chan
杨|Yang,Yeung
黄|Huang,Wong
赵|Zhao,Chiu
吴|Wu,Ng
周|Zhou,Chow
徐|Xu,Tsui
孙|Sun,Suen
马|Ma
朱|Zhu,Chu
胡|Hu,Woo
郭|Guo,Kwok
何|He,Ho
林|Lin,Lam
罗|Luo,Law
高|Gao,Ko
郑|Zheng,Cheng
梁|Liang,Leung
谢|Xie,Tse
宋|Song,Sung
唐|Tang,Tong
韩|Han,Hon
冯|Feng,Fung
邓|Deng,Tang
曹|Cao,Tso
`)
	// Chinese given names: Han | pinyin syllables separated by spaces.
	chineseMale = parseScripted(`
建国|Jian Guo
志强|Zhi Qiang
伟|Wei
军|Jun
海涛|Hai Tao
晓明|Xiao Ming
文华|Wen Hua
国华|Guo Hua
建华|Jian Hua
永刚|Yong Gang
明|Ming
磊|Lei
勇|Yong
杰|Jie
涛|Tao
鹏|Peng
志华|Zhi Hua
春生|Chun Sheng
宏伟|Hong Wei
新民|Xin Min
德明|De Ming
国强|Guo Qiang
俊杰|Jun Jie
浩然|Hao Ran
`)
	chineseFemale = parseScripted(`
丽|Li
静|Jing
敏|Min
燕|Yan
芳|Fang
娜|Na
秀英|Xiu Ying
丽华|Li Hua
红梅|Hong Mei
海燕|Hai Yan
晓燕|Xiao Yan
雪梅|Xue Mei
玉兰|Yu Lan
美玲|Mei Ling
`)
	// Korean: Hangul | romanisations (North Korean usage first where it
	// differs, since most Korean entries on sanction lists are DPRK).
	koreanSurnames = parseScripted(`
김|Kim
이|Ri,Lee,Yi
박|Pak,Park
최|Choe,Choi
정|Jong,Jung,Chong
강|Kang
조|Jo,Cho
윤|Yun,Yoon
장|Jang,Chang
임|Rim,Lim
한|Han
오|O,Oh
서|So,Seo
신|Sin,Shin
권|Kwon
황|Hwang
안|An,Ahn
송|Song
류|Ryu,Yu
홍|Hong
`)
	koreanMale = parseScripted(`
종철|Jong Chol,Jong-chol,Jongcheol
영호|Yong Ho,Young-ho
성민|Song Min,Seong-min
민수|Min Su,Min-soo
철남|Chol Nam,Cheol-nam
광혁|Kwang Hyok,Gwang-hyeok
명국|Myong Guk,Myeong-guk
현우|Hyon U,Hyun-woo
지훈|Ji Hun,Ji-hoon
동현|Tong Hyon,Dong-hyun
상철|Sang Chol,Sang-cheol
정남|Jong Nam,Jeong-nam
영길|Yong Gil,Young-gil
학철|Hak Chol,Hak-cheol
일남|Il Nam,Il-nam
`)
	koreanFemale = parseScripted(`
지영|Ji Yong,Ji-young
수진|Su Jin,Soo-jin
혜진|Hye Jin,Hye-jin
민지|Min Ji,Min-ji
은희|Un Hui,Eun-hee
영희|Yong Hui,Young-hee
미숙|Mi Suk,Mi-sook
순희|Sun Hui,Soon-hee
`)
)

// Places of birth and residence per culture: "City|ISO code".
var (
	citiesAnglo       = list("New York|US, Chicago|US, Houston|US, Miami|US, Los Angeles|US, Boston|US, London|GB, Manchester|GB, Birmingham|GB, Glasgow|GB, Liverpool|GB, Dublin|IE, Cork|IE, Toronto|CA, Vancouver|CA, Sydney|AU, Melbourne|AU, Auckland|NZ")
	citiesGerman      = list("Berlin|DE, Hamburg|DE, München|DE, Köln|DE, Frankfurt am Main|DE, Stuttgart|DE, Düsseldorf|DE, Leipzig|DE, Dresden|DE, Hannover|DE, Wien|AT, Graz|AT, Linz|AT, Zürich|CH, Basel|CH, Bern|CH")
	citiesFrench      = list("Paris|FR, Marseille|FR, Lyon|FR, Toulouse|FR, Nice|FR, Nantes|FR, Strasbourg|FR, Bordeaux|FR, Lille|FR, Bruxelles|BE, Liège|BE, Genève|CH, Lausanne|CH, Luxembourg|LU, Montréal|CA")
	citiesItalian     = list("Roma|IT, Milano|IT, Napoli|IT, Torino|IT, Palermo|IT, Genova|IT, Bologna|IT, Firenze|IT, Bari|IT, Catania|IT, Reggio Calabria|IT")
	citiesPolish      = list("Warszawa|PL, Kraków|PL, Łódź|PL, Wrocław|PL, Poznań|PL, Gdańsk|PL, Szczecin|PL, Lublin|PL")
	citiesTurkish     = list("İstanbul|TR, Ankara|TR, İzmir|TR, Bursa|TR, Antalya|TR, Gaziantep|TR, Konya|TR, Trabzon|TR, Diyarbakır|TR")
	citiesIndian      = list("Mumbai|IN, Delhi|IN, Bengaluru|IN, Kolkata|IN, Chennai|IN, Hyderabad|IN, Ahmedabad|IN, Lahore|PK, Karachi|PK, Peshawar|PK, Dhaka|BD")
	citiesWestAfrican = list("Lagos|NG, Kano|NG, Abuja|NG, Ibadan|NG, Port Harcourt|NG, Maiduguri|NG, Accra|GH, Kumasi|GH, Dakar|SN, Bamako|ML, Gao|ML, Conakry|GN, Abidjan|CI, Ouagadougou|BF")
	citiesSpanish     = list("Ciudad de México|MX, Guadalajara|MX, Culiacán|MX, Tijuana|MX, Monterrey|MX, Bogotá|CO, Medellín|CO, Cali|CO, Caracas|VE, Maracaibo|VE, Valencia|VE, Madrid|ES, Barcelona|ES, Sevilla|ES, Buenos Aires|AR, Lima|PE, Guayaquil|EC, Tegucigalpa|HN, Ciudad de Guatemala|GT")
	citiesPortuguese  = list("São Paulo|BR, Rio de Janeiro|BR, Brasília|BR, Belo Horizonte|BR, Salvador|BR, Recife|BR, Curitiba|BR, Lisboa|PT, Porto|PT")
	citiesRussian     = list("Moscow|RU, Saint Petersburg|RU, Novosibirsk|RU, Yekaterinburg|RU, Kazan|RU, Nizhny Novgorod|RU, Chelyabinsk|RU, Samara|RU, Omsk|RU, Rostov-on-Don|RU, Ufa|RU, Krasnoyarsk|RU, Perm|RU, Voronezh|RU, Volgograd|RU, Krasnodar|RU, Vladivostok|RU, Irkutsk|RU, Tyumen|RU, Grozny|RU, Makhachkala|RU, Sevastopol|UA, Minsk|BY, Almaty|KZ")
	citiesUkrainian   = list("Kyiv|UA, Kharkiv|UA, Odesa|UA, Dnipro|UA, Donetsk|UA, Zaporizhzhia|UA, Lviv|UA, Luhansk|UA, Simferopol|UA, Mariupol|UA")
	citiesArabic      = list("Riyadh|SA, Jeddah|SA, Dubai|AE, Abu Dhabi|AE, Sharjah|AE, Damascus|SY, Aleppo|SY, Homs|SY, Baghdad|IQ, Mosul|IQ, Basra|IQ, Sanaa|YE, Aden|YE, Amman|JO, Beirut|LB, Cairo|EG, Alexandria|EG, Kuwait City|KW, Doha|QA, Tripoli|LY, Benghazi|LY")
	citiesPersian     = list("Tehran|IR, Mashhad|IR, Isfahan|IR, Karaj|IR, Shiraz|IR, Tabriz|IR, Qom|IR, Ahvaz|IR, Kerman|IR, Bandar Abbas|IR")
	citiesChinese     = list("Beijing|CN, Shanghai|CN, Guangzhou|CN, Shenzhen|CN, Tianjin|CN, Dalian|CN, Chengdu|CN, Wuhan|CN, Hangzhou|CN, Xiamen|CN, Harbin|CN, Hong Kong|HK")
	citiesKorean      = list("Pyongyang|KP, Hamhung|KP, Chongjin|KP, Nampo|KP, Wonsan|KP, Sinuiju|KP, Seoul|KR, Busan|KR, Incheon|KR")
)

// Streets per address style.
var (
	streetsEnglish = list("High, Church, Park, Station, King, Queen, Victoria, Mill, Oak, Maple, Elm, Cedar, Lake, Hill, Market, Bridge, Harbour, Riverside")
	streetsGerman  = list("Haupt, Bahnhof, Garten, Schul, Kirch, Berliner, Goethe, Schiller, Linden, Friedrich, Wald, Industrie")
	streetsFrench  = list("de la République, Victor Hugo, du Général de Gaulle, de la Paix, Pasteur, Jean Jaurès, des Lilas, Nationale, Saint-Honoré")
	streetsSpanish = list("Mayor, Real, Reforma, Bolívar, Libertad, San Martín, Juárez, Hidalgo, Independencia, Insurgentes, Sucre")
	streetsItalian = list("Roma, Garibaldi, Mazzini, Cavour, Dante, Verdi, Marconi, Vittorio Emanuele II, Nazionale")
	streetsPortug  = list("das Flores, São João, Sete de Setembro, XV de Novembro, Augusta, da Consolação, Paulista")
	streetsRussian = list("Tverskaya, Lenina, Sadovaya, Mira, Gagarina, Pushkina, Sovetskaya, Bolshaya Ordynka, Novy Arbat, Kutuzovsky prospekt, Leninsky prospekt, Prechistenka")
	streetsArabic  = list("King Fahd, Olaya, Sheikh Zayed, Al Rashid, Hamra, Baghdad, Al Mansour, Corniche, Al Thawra, Abu Rummaneh")
	streetsPersian = list("Valiasr, Enghelab, Azadi, Shariati, Motahari, Jomhouri, Beheshti")
	streetsChinese = list("Nanjing, Zhongshan, Renmin, Jiefang, Huaihai, Changan, Binhai, Shennan")
	streetsTurkish = list("Atatürk, İstiklal, Cumhuriyet, Bağdat, Gazi Mustafa Kemal, İnönü")
	streetsPolish  = list("Marszałkowska, Długa, Kościuszki, Mickiewicza, Piłsudskiego, Słowackiego")
	streetsIndian  = list("MG, Nehru, Gandhi, Station, Link, Ring, Mall")
	streetsWAfrica = list("Awolowo, Broad, Marina, Ahmadu Bello, Independence, Adeola Odeku, Liberation")
)
