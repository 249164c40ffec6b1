#[derive(Serialize, Deserialize)]
pub struct P {
    pub a: u8,
}

acp_peer!(Client, A, B, C, D, (one, "one", P, true, P, true), (two, "one", P, true, P, true));
acp_peer!(Server, A, B, C, D, (three, "three", P, true, P, true));
acp_peer!(Client, A, B, C, D, (four, four, P, yes, P, true), oops);
acp_peer!(Client, A);
acp_peer!(Agent, A, B, C, D, (five, "five", Missing, false, AlsoMissing, false));
