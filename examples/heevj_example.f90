! heevj_example.f90: eigenvalues and eigenvectors of a batch of complex
! Hermitian matrices from Fortran, with the module `batcheig` (Jacobi).
!
! A LAPACK code computes them in a loop,
!     do b = 1, batch
!       call zheev('V', 'L', n, a(:,:,b), n, w(:,b), work, lwork, rwork, info(b))
!     end do
! batcheig does the whole batch in one call, with the same jobz and uplo:
!     call batcheig_heevj(a, w, info, jobz='V', uplo='L')
! (batcheig_syevj, or the same generic name, for real symmetric matrices).
!
! Build against an installed batcheig:
!   gfortran heevj_example.f90 $(pkg-config --cflags --libs batcheig-fortran)
! or with CMake: find_package(batcheig COMPONENTS fortran) and link
! batcheig::fortran (see CMakeLists.txt and Makefile beside this file).
!
! Exit status 0 when every residual ||A V - V diag(w)|| and ||I - V^H V||
! is small, 1 otherwise.
program heevj_example
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_double_complex, c_ptr
  use, intrinsic :: iso_fortran_env, only: int64
  use batcheig
  implicit none

  integer, parameter :: n = 12, batch = 500
  real(c_double), parameter :: threshold = 60.0_c_double
  complex(c_double_complex), allocatable :: a(:, :, :), a0(:, :, :)
  real(c_double), allocatable :: w(:, :), offnorm(:)
  integer(c_int), allocatable :: info(:), sweeps(:)
  type(c_ptr) :: params
  integer(c_int) :: st
  integer :: b, i, j, failures
  integer(int64) :: seed   ! Park-Miller generator, 64-bit products
  real(c_double) :: re, im, worst_res, worst_orth, anorm, eps
  complex(c_double_complex) :: full(n, n), eye(n, n)

  allocate (a(n, n, batch), w(n, batch), info(batch), sweeps(batch), offnorm(batch))

  ! Only the lower triangle is read (uplo='L'); the upper one is left as
  ! garbage on purpose.
  seed = 7
  a = (-999.0_c_double, 999.0_c_double)
  do b = 1, batch
    do j = 1, n
      do i = j, n
        re = next()
        im = next()
        if (i == j) im = 0
        a(i, j, b) = cmplx(re, im, c_double_complex)
      end do
    end do
  end do
  a0 = a

  ! A params object: tighter sweep cap than the default 100 (still ample).
  call check(batcheigCreateParams(params), 'batcheigCreateParams')
  call check(batcheigParamsSetMaxSweeps(params, 30), 'batcheigParamsSetMaxSweeps')

  ! One call for the batch: a(:,:,b) is overwritten by the eigenvectors,
  ! w(:,b) gets the eigenvalues in ascending order, sweeps/offnorm the
  ! per-matrix Jacobi diagnostics. No handle= : a temporary one is used.
  call batcheig_heevj(a, w, info, jobz='V', uplo='L', sweeps=sweeps, residual=offnorm, &
      params=params, status=st)
  if (st /= BATCHEIG_STATUS_SUCCESS) then
    print '(a,a)', 'batcheig_heevj failed: ', batcheig_status_string(st)
    error stop 1
  end if
  call check(batcheigDestroyParams(params), 'batcheigDestroyParams')

  print '(i0,a,i0,a)', batch, ' Hermitian matrices of size ', n, ', matrix 1:'
  print '(a,*(1x,f8.4))', '  eigenvalues:', w(:, 1)
  print '(a,i0,a,i0,a,es9.2)', '  sweeps ', minval(sweeps), '..', maxval(sweeps), &
      ', max off(A)/||A||_F ', maxval(offnorm)

  eye = 0
  do j = 1, n
    eye(j, j) = 1
  end do
  eps = epsilon(1.0_c_double)
  failures = count(info /= 0)
  worst_res = 0
  worst_orth = 0
  do b = 1, batch
    ! The full Hermitian matrix from its lower triangle.
    do j = 1, n
      do i = 1, n
        if (i >= j) then
          full(i, j) = a0(i, j, b)
        else
          full(i, j) = conjg(a0(j, i, b))
        end if
      end do
    end do
    anorm = sqrt(sum(abs(full)**2))
    ! ||A V - V diag(w)||_F / (n ||A||_F eps) and ||I - V^H V||_F / (n eps)
    worst_res = max(worst_res, frob(matmul(full, a(:, :, b)) - a(:, :, b) * &
        spread(w(:, b), 1, n)) / (n * anorm * eps))
    worst_orth = max(worst_orth, frob(eye - matmul(conjg(transpose(a(:, :, b))), a(:, :, b))) &
        / (n * eps))
    if (any(w(2:, b) < w(:n - 1, b))) failures = failures + 1
  end do
  print '(a,f6.2,a,f6.2,a,f4.0,a,i0)', 'worst ||AV - VW|| ratio ', worst_res, &
      ', worst ||I - V^H V|| ratio ', worst_orth, ' (threshold ', threshold, '), failures: ', &
      failures
  if (failures > 0 .or. .not. (worst_res <= threshold .and. worst_orth <= threshold)) then
    print '(a)', 'FAILED'
    error stop 1
  end if
  print '(a)', 'ok'

contains

  real(c_double) function next()
    seed = modulo(seed * 16807_int64, 2147483647_int64)
    next = 2.0_c_double * seed / 2147483647.0_c_double - 1.0_c_double
  end function

  real(c_double) function frob(x)
    complex(c_double_complex), intent(in) :: x(:, :)
    frob = sqrt(sum(real(x)**2 + aimag(x)**2))
  end function

  subroutine check(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status /= BATCHEIG_STATUS_SUCCESS) then
      print '(a,a,a)', what, ' failed: ', batcheig_status_string(status)
      error stop 1
    end if
  end subroutine

end program heevj_example
