// One whole Alebrijes game through the Java client openapi-generator makes from
// openapi.yaml (`java`, library `native`): typed calls and models only. Prints one
// JSON line for the test to check. Usage: java Play BASE_URL
import java.util.ArrayList;
import java.util.List;
import tablestream.ApiClient;
import tablestream.api.AlebrijesApi;
import tablestream.api.GamesApi;
import tablestream.model.AlebrijesCommand;
import tablestream.model.AlebrijesEventPage;
import tablestream.model.AlebrijesMoved;
import tablestream.model.AlebrijesTableOptions;
import tablestream.model.AlebrijesTableOptionsSeed;
import tablestream.model.AlebrijesView;
import tablestream.model.CreateAlebrijesGame;
import tablestream.model.CreateGame;
import tablestream.model.Created;
import tablestream.model.GameCreated;
import tablestream.model.HumanSeat;
import tablestream.model.SeatCredentials;
import tablestream.model.SeatSpec;

public class Play {
    static ApiClient client(String base, String token) {
        ApiClient client = new ApiClient();
        client.updateBaseUri(base);
        if (token != null) {
            client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
        }
        return client;
    }

    public static void main(String[] args) throws Exception {
        String base = args[0];
        List<SeatSpec> seats = new ArrayList<>();
        for (String name : new String[] {"ana", "bea", "cy"}) {
            seats.add(new SeatSpec(new HumanSeat().kind(HumanSeat.KindEnum.HUMAN).name(name)));
        }
        CreateAlebrijesGame body = new CreateAlebrijesGame()
            .game(CreateAlebrijesGame.GameEnum.ALEBRIJES)
            .seats(seats)
            .options(new AlebrijesTableOptions().seed(new AlebrijesTableOptionsSeed(11L)).rounds(1));
        Created created = new GamesApi(client(base, null)).createGame(new CreateGame(body));
        String id = created.getId();
        List<AlebrijesApi> players = new ArrayList<>();
        for (SeatCredentials seat : created.getSeats()) {
            players.add(new AlebrijesApi(client(base, seat.getToken())));
        }
        AlebrijesApi anyone = new AlebrijesApi(client(base, null));
        long moves = 0;
        AlebrijesView view = anyone.getAlebrijesView(id, null, null, null);
        for (int polls = 0; view.getStatus() != AlebrijesView.StatusEnum.FINISHED && polls < 5000; polls++) {
            if (view.getToAct().isEmpty()) {  // not started, or not projected yet: wait for news
                view = anyone.getAlebrijesView(id, view.getVersion(), new java.math.BigDecimal(5), null);
                continue;
            }
            int seat = view.getToAct().get(0).intValue();
            // One request a turn: the seat's view once it must act.
            AlebrijesView mine = players.get(seat).getAlebrijesView(id, view.getVersion() - 1, new java.math.BigDecimal(30), "turn");
            if (mine.getLegal().isEmpty()) {  // the seat's turn went by meanwhile: look again
                view = anyone.getAlebrijesView(id, mine.getVersion() - 1, null, null);
                continue;
            }
            AlebrijesCommand command = mine.getLegal().get(0);
            AlebrijesMoved moved = players.get(seat).sendAlebrijesCommand(id, command);
            long version = moved.getVersion();  // int64: a Long
            moves++;
            view = anyone.getAlebrijesView(id, version - 1, null, null);
        }
        AlebrijesEventPage log = anyone.getAlebrijesEvents(id, 0L, 1000);
        GameCreated first = (GameCreated) log.getEvents().get(0).getActualInstance();
        long at = first.getAt();  // ms since the epoch: past 2^31
        System.out.println("{\"status\": \"" + view.getStatus().getValue() + "\", \"moves\": " + moves
            + ", \"scores\": " + view.getResult().getScores() + ", \"at\": " + at
            + ", \"events\": " + log.getEvents().size() + "}");
    }
}
