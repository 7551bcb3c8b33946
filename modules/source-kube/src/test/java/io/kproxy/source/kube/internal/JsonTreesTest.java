package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kproxy.model.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonTreesTest {

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void convertsEveryKindOfValueAndKeepsKeyOrder() throws Exception {
        Json.Obj obj = JsonTrees.toObject(mapper.readTree("""
                {"z":1,"a":"text","m":[true,false,null],"n":{"port":8080,"ratio":0.5,"big":12345678901234567890}}
                """));

        assertThat(List.copyOf(obj.fields().keySet())).containsExactly("z", "a", "m", "n");
        assertThat(obj.fields().get("z")).isEqualTo(new Json.Int(1));
        assertThat(obj.fields().get("a")).isEqualTo(new Json.Str("text"));
        assertThat(obj.array("m")).containsExactly(Json.Bool.TRUE, Json.Bool.FALSE, Json.Null.INSTANCE);
        Json.Obj n = obj.object("n");
        assertThat(n.fields().get("port")).isEqualTo(new Json.Int(8080));
        assertThat(n.fields().get("ratio")).isEqualTo(new Json.Dec(0.5));
        assertThat(n.fields().get("big")).isInstanceOf(Json.Dec.class);
        assertThat(List.copyOf(n.fields().keySet())).containsExactly("port", "ratio", "big");
    }

    @Test
    void longsStayIntegers() throws Exception {
        Json.Obj obj = JsonTrees.toObject(mapper.readTree("{\"v\":9007199254740993}"));
        assertThat(obj.fields().get("v")).isEqualTo(new Json.Int(9007199254740993L));
    }

    @Test
    void refusesNonObjects() throws Exception {
        assertThatThrownBy(() -> JsonTrees.toObject(mapper.readTree("[1]"))).isInstanceOf(IllegalArgumentException.class);
    }
}
