// The Java client openapi-generator makes from openapi.yaml (`java`, library `native`),
// typed calls and models only, each game through its own typed operations
// (AlebrijesApi, AlienApi...): one whole Alebrijes game with a person at every seat,
// each sending its first legal command; then a game of each of the four played by the
// server's bots, followed with the typed view and its whole log read as typed events.
// Prints one JSON line per game for the test to check.
// Usage: java Play BASE_URL
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import tablestream.ApiClient;
import tablestream.api.AbluxxenApi;
import tablestream.api.AlakablastApi;
import tablestream.api.AlebrijesApi;
import tablestream.api.AlienApi;
import tablestream.api.GamesApi;
import tablestream.model.AbluxxenCommand;
import tablestream.model.AbluxxenTableOptions;
import tablestream.model.AbluxxenView;
import tablestream.model.AlakablastCommand;
import tablestream.model.AlakablastTableOptions;
import tablestream.model.AlakablastView;
import tablestream.model.AlebrijesCommand;
import tablestream.model.AlebrijesMoved;
import tablestream.model.AlebrijesTableOptions;
import tablestream.model.AlebrijesTableOptionsSeed;
import tablestream.model.AlebrijesView;
import tablestream.model.AlienCommand;
import tablestream.model.AlienTableOptions;
import tablestream.model.AlienView;
import tablestream.model.BotSeat;
import tablestream.model.CreateAbluxxenGame;
import tablestream.model.CreateAlakablastGame;
import tablestream.model.CreateAlebrijesGame;
import tablestream.model.CreateAlienGame;
import tablestream.model.CreateGame;
import tablestream.model.Created;
import tablestream.model.GameCreated;
import tablestream.model.HumanSeat;
import tablestream.model.Result;
import tablestream.model.SeatCredentials;
import tablestream.model.SeatSpec;

public class Play {
    /** What the loop needs of a view, read from each game's own typed view. */
    record Seen(String status, List<Long> toAct, long version, List<?> legal, Result result) {}

    /** One game's typed operations: a seat's view (seat -1: a spectator's), a command. */
    interface Table {
        Seen view(int seat, Long after, BigDecimal wait, String until) throws Exception;

        long send(int seat, Object command) throws Exception;

        /** The whole log, each event read as its own class of the game's union. */
        List<Object> log() throws Exception;
    }

    static ApiClient client(String base, String token) {
        ApiClient client = new ApiClient();
        client.updateBaseUri(base);
        // Jackson coerces 11 to "11" by default, so a `oneOf` of an integer and a string
        // (a seed) would match both and be refused: read scalars as they are.
        ObjectMapper mapper = client.getObjectMapper();  // a copy: set it back
        mapper.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        client.setObjectMapper(mapper);
        if (token != null) {
            client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
        }
        return client;
    }

    static List<SeatSpec> seats() {
        List<SeatSpec> seats = new ArrayList<>();
        for (String name : new String[] {"ana", "bea", "cy"}) {
            seats.add(new SeatSpec(new HumanSeat().kind(HumanSeat.KindEnum.HUMAN).name(name)));
        }
        return seats;
    }

    static AlebrijesTableOptionsSeed seed() {  // every game's options share this class
        return new AlebrijesTableOptionsSeed(11L);  // a number: the finished game's seed comes back 11, not "11"
    }

    static Table alebrijes(String base, Created created) {
        List<AlebrijesApi> apis = apis(created, t -> new AlebrijesApi(client(base, t)));
        String id = created.getId();
        return new Table() {
            public Seen view(int seat, Long after, BigDecimal wait, String until) throws Exception {
                AlebrijesView v = apis.get(seat + 1).getAlebrijesView(id, after, wait, until);
                return new Seen(v.getStatus().getValue(), v.getToAct(), v.getVersion(), v.getLegal(), v.getResult());
            }

            public long send(int seat, Object command) throws Exception {
                AlebrijesMoved moved = apis.get(seat + 1).sendAlebrijesCommand(id, (AlebrijesCommand) command);
                return moved.getVersion();  // int64: a Long
            }

            public List<Object> log() throws Exception {
                List<Object> events = new ArrayList<>();
                for (var event : apis.get(0).getAlebrijesEvents(id, 0L, 1000).getEvents()) {
                    events.add(event.getActualInstance());
                }
                return events;
            }
        };
    }

    static Table alien(String base, Created created) {
        List<AlienApi> apis = apis(created, t -> new AlienApi(client(base, t)));
        String id = created.getId();
        return new Table() {
            public Seen view(int seat, Long after, BigDecimal wait, String until) throws Exception {
                AlienView v = apis.get(seat + 1).getAlienView(id, after, wait, until);
                return new Seen(v.getStatus().getValue(), v.getToAct(), v.getVersion(), v.getLegal(), v.getResult());
            }

            public long send(int seat, Object command) throws Exception {
                return apis.get(seat + 1).sendAlienCommand(id, (AlienCommand) command).getVersion();
            }

            public List<Object> log() throws Exception {
                List<Object> events = new ArrayList<>();
                for (var event : apis.get(0).getAlienEvents(id, 0L, 1000).getEvents()) {
                    events.add(event.getActualInstance());
                }
                return events;
            }
        };
    }

    static Table alakablast(String base, Created created) {
        List<AlakablastApi> apis = apis(created, t -> new AlakablastApi(client(base, t)));
        String id = created.getId();
        return new Table() {
            public Seen view(int seat, Long after, BigDecimal wait, String until) throws Exception {
                AlakablastView v = apis.get(seat + 1).getAlakablastView(id, after, wait, until);
                return new Seen(v.getStatus().getValue(), v.getToAct(), v.getVersion(), v.getLegal(), v.getResult());
            }

            public long send(int seat, Object command) throws Exception {
                return apis.get(seat + 1).sendAlakablastCommand(id, (AlakablastCommand) command).getVersion();
            }

            public List<Object> log() throws Exception {
                List<Object> events = new ArrayList<>();
                for (var event : apis.get(0).getAlakablastEvents(id, 0L, 1000).getEvents()) {
                    events.add(event.getActualInstance());
                }
                return events;
            }
        };
    }

    static Table abluxxen(String base, Created created) {
        List<AbluxxenApi> apis = apis(created, t -> new AbluxxenApi(client(base, t)));
        String id = created.getId();
        return new Table() {
            public Seen view(int seat, Long after, BigDecimal wait, String until) throws Exception {
                AbluxxenView v = apis.get(seat + 1).getAbluxxenView(id, after, wait, until);
                return new Seen(v.getStatus().getValue(), v.getToAct(), v.getVersion(), v.getLegal(), v.getResult());
            }

            public long send(int seat, Object command) throws Exception {
                return apis.get(seat + 1).sendAbluxxenCommand(id, (AbluxxenCommand) command).getVersion();
            }

            public List<Object> log() throws Exception {
                List<Object> events = new ArrayList<>();
                for (var event : apis.get(0).getAbluxxenEvents(id, 0L, 1000).getEvents()) {
                    events.add(event.getActualInstance());
                }
                return events;
            }
        };
    }

    /** The spectator's API first, then one per seat with the seat's token. */
    static <A> List<A> apis(Created created, java.util.function.Function<String, A> make) {
        List<A> apis = new ArrayList<>();
        apis.add(make.apply(null));
        for (SeatCredentials seat : created.getSeats()) {
            apis.add(make.apply(seat.getToken()));
        }
        return apis;
    }

    /** Every seat sends its first legal command until the game ends; one JSON line. */
    static void play(String game, Table table, long version) throws Exception {
        long moves = 0;
        Seen seen = table.view(-1, version - 1, null, null);
        for (int polls = 0; !seen.status().equals("finished") && polls < 5000; polls++) {
            if (seen.toAct().isEmpty()) {  // not started, or Alien's stacking window: wait for news
                seen = table.view(-1, seen.version(), new BigDecimal(5), null);
                continue;
            }
            int seat = seen.toAct().get(0).intValue();
            // One request a turn: the seat's view once it must act.
            Seen mine = table.view(seat, seen.version() - 1, new BigDecimal(30), "turn");
            if (mine.legal().isEmpty()) {  // the seat's turn went by meanwhile: look again
                seen = table.view(-1, mine.version() - 1, null, null);
                continue;
            }
            long moved = table.send(seat, mine.legal().get(0));
            moves++;
            seen = table.view(-1, moved - 1, null, null);
        }
        report(game, table, seen, moves);
    }

    /** A game's summary line: its status, moves, scores, game_created's `at` (a Java
    * long) and how many of its events the typed union read. */
    static void report(String game, Table table, Seen seen, long moves) throws Exception {
        List<Object> log = table.log();
        long at = ((GameCreated) log.get(0)).getAt();
        long typed = log.stream().filter(e -> e != null).count();
        System.out.println("{\"game\": \"" + game + "\", \"status\": \"" + seen.status() + "\", \"moves\": "
            + moves + ", \"scores\": " + (seen.result() == null ? null : seen.result().getScores())
            + ", \"at\": " + at + ", \"events\": " + log.size() + ", \"typed\": " + typed + "}");
    }

    static List<SeatSpec> bots() {
        List<SeatSpec> seats = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            BotSeat bot = new BotSeat().kind(BotSeat.KindEnum.BOT).bot("random");
            seats.add(new SeatSpec(bot.reactionSeconds(new BigDecimal(0))));
        }
        return seats;
    }

    /** A game of bots only, followed with the typed spectator view to its end. */
    static void watch(String game, Table table, long version) throws Exception {
        Seen seen = table.view(-1, version - 1, null, null);
        for (int polls = 0; !seen.status().equals("finished") && polls < 600; polls++) {
            seen = table.view(-1, seen.version(), new BigDecimal(10), null);
        }
        report(game, table, seen, 0);
    }

    public static void main(String[] args) throws Exception {
        String base = args[0];
        GamesApi games = new GamesApi(client(base, null));
        // One whole game with a person at every seat: typed views, commands and events.
        Created created = games.createGame(new CreateGame(new CreateAlebrijesGame()
            .game(CreateAlebrijesGame.GameEnum.ALEBRIJES).seats(seats())
            .options(new AlebrijesTableOptions().seed(seed()).rounds(1))));
        play("alebrijes", alebrijes(base, created), created.getVersion());
        // Each game played by the server's bots, read with its own typed view and log.
        created = games.createGame(new CreateGame(new CreateAlebrijesGame()
            .game(CreateAlebrijesGame.GameEnum.ALEBRIJES).seats(bots())
            .options(new AlebrijesTableOptions().seed(seed()).rounds(1))));
        watch("alebrijes", alebrijes(base, created), created.getVersion());
        created = games.createGame(new CreateGame(new CreateAlienGame()
            .game(CreateAlienGame.GameEnum.ALIEN).seats(bots())
            .options(new AlienTableOptions().seed(seed()).stackSeconds(new BigDecimal(1)))));
        watch("alien", alien(base, created), created.getVersion());
        created = games.createGame(new CreateGame(new CreateAlakablastGame()
            .game(CreateAlakablastGame.GameEnum.ALAKABLAST).seats(bots())
            .options(new AlakablastTableOptions().seed(seed()))));
        watch("alakablast", alakablast(base, created), created.getVersion());
        created = games.createGame(new CreateGame(new CreateAbluxxenGame()
            .game(CreateAbluxxenGame.GameEnum.ABLUXXEN).seats(bots())
            .options(new AbluxxenTableOptions().seed(seed()))));
        watch("abluxxen", abluxxen(base, created), created.getVersion());
    }
}
