struct Coeffs {
    float a, b, c, d;
    int n;
};
