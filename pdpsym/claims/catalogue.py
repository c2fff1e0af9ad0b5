"""The catalogue of claims: every checkable statement of the three papers, in our words.

Each entry names the claim id (``paper.label``), the paper's section, the label the paper
gives it, and the statement that its checker decides. ``pdpsym verify --list`` prints
it, and docs/claims.md is generated from it. Rows may be added, never removed.

Papers:

* ``li2019``: Li, Ren, Yang, Yang, "Impact of Prior Knowledge and Data Correlation on
  Privacy Leakage: A Unified Analysis" (prior differential privacy, PDP).
* ``dmkb2020``: Desfontaines, Mohammadi, Krahmer, Basin, "Differential Privacy with
  Partial Knowledge".
* ``lmm2016``: Liu, Chakraborty, Mittal, "Dependence Makes You Vulnerable: Differential
  Privacy Under Dependent Tuples".
"""

from __future__ import annotations

from dataclasses import dataclass

PAPERS: dict[str, str] = {
    "li2019": "Li, Ren, Yang, Yang: Impact of Prior Knowledge and Data Correlation on Privacy "
    "Leakage: A Unified Analysis",
    "dmkb2020": "Desfontaines, Mohammadi, Krahmer, Basin: Differential Privacy with Partial "
    "Knowledge",
    "lmm2016": "Liu, Chakraborty, Mittal: Dependence Makes You Vulnerable: Differential Privacy "
    "Under Dependent Tuples",
}


@dataclass(frozen=True)
class Claim:
    """One catalogued claim: its id, the paper's section and label, and the statement."""

    id: str
    section: str
    label: str
    statement: str

    @property
    def paper(self) -> str:
        """The paper's id: the part of the claim id before the first dot (``"li2019"``)."""
        return self.id.split(".", 1)[0]


# id | section | label | statement (one claim a line, parsed once at import; the
# statement may itself contain "|")
_TABLE = """
li2019.eq3 | IV | Eq. 3 | the Bayesian form (Eq. 3) equals the Eq. 2 ratio
li2019.breakpoints | IV | Eq. 2 (our lemma) | the sup over r in Eq. 2 is attained on the union of the support points (a lemma of this project, used to compute Eq. 2)
li2019.remark1 | IV | Remark 1, Eq. 4 | the DP / group-DP bound: PL ≤ Σ over {i}∪U of Δ_k/λ
li2019.thm1 | IV | Theorem 1 | independent tuples: prior knowledge does not change leakage
li2019.ex2 | IV | Example 2 | Example 2: on (a) the weaker adversary leaks more than the stronger (=1); on (b) it leaks less; DP on the pair gives 2
li2019.ex3 | IV | Example 3 | Example 3: stronger positive correlation raises the weakest adversary's leakage; stronger negative correlation lowers it
li2019.ex4 | IV | Example 4 | Example 4: a larger domain (sensitivity) gives larger leakage, (c) vs (d)
li2019.thm2 | V | Theorem 2, Eq. 11 | Theorem 2 (Eq. 11): the ancestor's leakage is |PL + w|
li2019.thm3.1 | V | Theorem 3(1) | q ∈ [-1, 1]
li2019.thm3.2 | V | Theorem 3(2) | binary domains: sign(q) = sign(ρ)
li2019.thm3.3 | V | Theorem 3(3) | x_i binary, larger domain for x_j, small Δ_j/λ: the same sign rule
li2019.thm3.remark | V | Remark after Theorem 3 | x_i with more than two values: ρ>0 gives at least one q>0; independence gives all q=0; ρ<0 gives at least one q<0
li2019.lemma3 | V | Lemma 3 | binary x_i: the sign of ρ is the sign of the difference of the conditional means
li2019.thm4 | V | Theorem 4 | bottom layer: PL = Δ_i/λ whatever θ
li2019.thm5 | V | Theorem 5, Eq. 14 | the chain rule (Eq. 14) gives each node's leakage
li2019.eq16 | V | Eq. 16 | with all q ≤ 1 the chain value is at most group DP
li2019.cor1.1 | V | Corollary 1(1) | all q = 1: PDP equals group DP
li2019.cor1.2 | V | Corollary 1(2) | all w > 0: the maximum is at the top layer
li2019.cor1.3 | V | Corollary 1(3) | all w < 0: the maximum is at the bottom layer
li2019.fastsearch | V-D, VII-B3 | Algorithms 1-2 | Section VII-B3: fast search errs high (overestimates) compared with full search, and gets close for strong correlation
li2019.lemma1 | VI | Lemma 1 | the Gaussian conditioning formulas
li2019.lemma2 | VI | Lemma 2 | the Laplace-Gaussian convolution bounds
li2019.thm6 | VI | Theorem 6 | Gaussian leakage = |c| Δ_i/λ
li2019.cor2 | VI | Corollary 2 | weakest adversary: c = Σ_j σ_ij/σ_ii
li2019.ex5 | VI | Example 5 | bivariate Gaussian: (1+ρ)Δ/λ against Δ/λ
li2019.sec7 | VII | Figs. 4-5 | Section VII's qualitative findings (layer-1 leakage is flat in correlation; monotone in prior knowledge for positive correlation; ...), each as its own row if it is checkable
dmkb2020.prop1 | 2.2 | Proposition 1 | (Θ,ε)-CDP ⇒ (Θ,2ε)-IBCDP and (Θ,ε)-IBCDP ⇒ (Θ,2ε)-CDP
dmkb2020.ex1 | 2.2 | Example 1 | the mean with a hidden global ±1 parameter is not NP
dmkb2020.ex2 | 2.2 | Example 2 | with duplicated records the identity is ({θ},0)-DDP
dmkb2020.ex3 | 2.2 | Example 3 | the outlier counter is NP but not CDP
dmkb2020.ex4 | 2.2 | Example 4 | the sum over duplicated records can be NP but is never CDP (parity)
dmkb2020.ex5 | 2.2 | Example 5 | the "correcting" mechanism over triplicated records is ({θ},0)-CDP
dmkb2020.prop2 | 2.2 | Proposition 2 | independent records: NP ⇔ CDP
dmkb2020.prop3 | 2.3 | Proposition 3 | more background knowledge (common acceptable normalization) ⇒ NP is monotone
dmkb2020.prop4 | 2.3 | Proposition 4 | acceptable Θ: NP ⇔ CDP
dmkb2020.ex6 | 2.3 | Example 6 | the two acceptable normalizations of the paired referendum
dmkb2020.lemma1 | 3.1 | Lemma 1 | (ε,δ)-indistinguishability ⇔ the PLRV expectation form
dmkb2020.def12 | 3.2 | Definition 12 | the two forms of APKDP are equivalent
dmkb2020.prop5 | 3.4 | Proposition 5 | post-processing and convexity (PPKDP and APKDP)
dmkb2020.thm1 | 3.4 | Theorem 1 | PPK = E[APK]; APKDP ⇒ PPKDP; equivalent when δ = 0; strict when δ > 0
dmkb2020.thm2 | 3.4 | Theorem 2 | Θ-reducible ⇒ APKDP ⇔ PPKDP
dmkb2020.prop6 | 3.4 | Proposition 6, Definition 14 | counting, linear queries, and the arithmetic/geometric/harmonic/quadratic means are Θ-reducible with the printed maps φ
dmkb2020.thm3 | 4.1 | Theorem 3 | counting queries: the (ε,δ) condition via X/Y and its closed form
dmkb2020.thm3.decomposition | 4.1 | Theorem 3 (proof) | Bernoulli(p_i) as randomized response with parameter 2λ
dmkb2020.prop7 | 4.1 | Proposition 7 | the GK17 bound as restated
dmkb2020.cor1 | 4.1 | Corollary 1 | the histogram version of Theorem 3
dmkb2020.thm4 | 4.2 | Theorem 4 | thresholding: r, ε, δ for |B| = 0 and for |B| > 0
dmkb2020.thm4.plrv | 4.2 | Theorem 4 (proof) | the printed PLRV formulas of the thresholding mechanism
dmkb2020.thm4.poisson | 4.2 | Theorem 4 (remark) | the Poisson approximation of δ, and "ε ≈ δ when small"
dmkb2020.thm4.coupling | 4.2 | Theorem 4 (heterogeneous p_i) | heterogeneous p_i < p are dominated by the common p
dmkb2020.lemma2 | 4.2 | Lemma 2 | the binomial tail bound
dmkb2020.prop8 | 4.2 | Proposition 8 | APKDP of M_T with |B| ≤ T ⇔ PPKDP of M_{T-|B|} with n-|B| records
dmkb2020.thm5 | 4.3 | Theorem 5 | k-anonymity mechanism: δ_0 and ε
dmkb2020.ex7 | 3 | Example 7 | thresholding example: private against passive, not against active attackers
dmkb2020.ex8 | 5.1 | Example 8 | the two counting queries that compose badly
dmkb2020.thm6 | 5.1 | Theorem 6 | the composition PLRV identity and its (ε,δ) corollary
dmkb2020.thm6.subadditivity | 5.1 | Theorem 6 (proof) | f(x)=max(0,1-e^x) is subadditive
dmkb2020.prop9 | 5.1 | Proposition 9 | independent parts give (0,0)-bounded dependence
dmkb2020.ex9 | 5.1 | Example 9 | c-indistinguishable temporal correlation gives (2c,0)-bounded dependence
dmkb2020.def19 | 5.2 | Definition 19, Fig. 6 | the two-sided geometric distribution is a distribution; its convolution with the binomial count (Figure 6)
dmkb2020.fig5 | 5.2 | Fig. 5 | post-processing Laplace noise caps ε as |B| grows
lmm2016.rho | V | Definition of ρ_ij | the dependence coefficient ρ_ij lies in [0, 1]
lmm2016.thm3 | V | Theorem 3 | DDP sequential composition
lmm2016.thm4 | V | Theorem 4 | DDP parallel composition
lmm2016.thm5 | V | Theorem 5 | DDP post-processing
lmm2016.thm6 | V | Theorem 6 | DDP convexity
lmm2016.thm7 | VI | Theorem 7 | the baseline Lap(L·ΔQ/ε) gives ε-DDP
lmm2016.sensitivity | VI | dependent sensitivity example | the worked example D_j = 0.5 D_i + 0.5 X: the sum's sensitivity over the dependent pair is 1.5, not 2
"""

CATALOGUE: dict[str, Claim] = {
    cid: Claim(cid, section, label, statement)
    for cid, section, label, statement in (
        (part.strip() for part in row.split("|", 3)) for row in _TABLE.strip().splitlines()
    )
}

# Why a "supported" claim has no symbolic proof: one line each (a claim proved symbolically
# has none). tests/verify/test_catalogue.py keeps this in step with the frozen verdicts.
NO_GENERAL_PROOF: dict[str, str] = {
    "li2019.ex3": "Example 3's tables (a'), (b') are lost; it is a statement about instances, "
    "checked on a one-parameter family of tables, not a general law",
    "li2019.cor1.1": "q = 1 is reached only by perfectly correlated tables; the claim is "
    "checked on the tables that reach it, and no characterization of q = 1 is at hand",
    "li2019.cor1.3": "|V + w| <= V needs w >= -2V at every step, which all w < 0 does not "
    "give; the claim is checked on generated WHGs, not argued for every WHG",
    "dmkb2020.prop1": "Bayes' rule and a mediant give the factor 2 for finite ε, but the "
    "checker also asserts that ∞ meets ∞, which depends on the outputs each definition "
    "quantifies over: decided on generated scenarios",
    "dmkb2020.prop3": "'more background knowledge' mixes conditionals whose weights differ "
    "between D(i) = a and b, so no mediant argument applies as is: decided on generated cases",
    "dmkb2020.lemma1": "a cited identity ([MM18]); decided exactly on every pair of finite "
    "output laws of a stated class, no symbolic version written",
    "dmkb2020.def12": "a definition's reading: nothing to prove beyond computing APKDP, "
    "which the checker does on generated scenarios",
    "dmkb2020.prop5": "post-processing and convexity of PPKDP (data processing for the "
    "hockey stick); decided exactly on generated mechanisms and kernels, no symbolic version",
    "dmkb2020.thm1": "APK as the expectation of PPK over B̂ (linearity); decided exactly on "
    "generated scenarios, no symbolic version written",
    "dmkb2020.thm2": "compares profile multisets over every pair B1, B2 of a finite "
    "scenario; decided exhaustively on stated classes",
    "dmkb2020.cor1": "rests on the shuffling bound of [BBN19] with numeric constants; the "
    "claim quantifies over numeric (ε, δ), checked on exact instances",
    "dmkb2020.thm4": "(ε, δ) come from binomial tail bounds at numeric thresholds; decided "
    "exhaustively over n <= 7, all T, |B| <= 3, all b_max",
    "dmkb2020.thm4.coupling": "a coupling of heterogeneous p_i with a common p; decided "
    "exactly on generated instances",
    "lmm2016.rho": "rho_ij is a sup over outputs of ratios of Laplace mixtures (Eq. 14 "
    "rebuilt); 0 <= rho <= 1 is decided per law with exp-polynomial comparisons",
    "lmm2016.thm7": "holds only with the dependence size L read jointly (the pairwise reading "
    "fails); the sup over outputs is decided exactly per law",
}
